-- Products from the operator's feed: its id is the product's key (the seed's products keep their
-- slug as key), brand, GTIN, availability; every change to a product is logged.
CREATE TABLE "catalog_changes" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "catalog_changes_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"by_id" uuid,
	"source" text NOT NULL,
	"product_id" uuid NOT NULL,
	"field" text NOT NULL,
	"from" jsonb,
	"to" jsonb
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "key" text;--> statement-breakpoint
UPDATE "products" SET "key" = "slug";--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "brand" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "gtin" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "available" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "catalog_changes" ADD CONSTRAINT "catalog_changes_by_id_users_id_fk" FOREIGN KEY ("by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_changes" ADD CONSTRAINT "catalog_changes_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "catalog_changes_product_idx" ON "catalog_changes" USING btree ("product_id","seq");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_key_unique" UNIQUE("key");