-- Product photos (an imported feed's image_link, or an operator's upload) as WebP in two sizes,
-- in their own table so the catalog's in-memory copy of products never loads them. Every product
-- keeps its drawn SVG; image_type says which picture it shows.
CREATE TABLE "product_images" (
	"product_id" uuid PRIMARY KEY NOT NULL,
	"hash" text NOT NULL,
	"source" text,
	"small" "bytea" NOT NULL,
	"large" "bytea" NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "image_type" text DEFAULT 'svg' NOT NULL;--> statement-breakpoint
ALTER TABLE "product_images" ADD CONSTRAINT "product_images_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;