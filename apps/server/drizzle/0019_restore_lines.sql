CREATE TABLE "removed_lines" (
	"line_id" uuid PRIMARY KEY NOT NULL,
	"cart_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"added_by" uuid NOT NULL,
	"quantity" integer NOT NULL,
	"shared_with" uuid[] NOT NULL,
	"added_at" timestamp with time zone NOT NULL,
	"removed_by" uuid NOT NULL,
	"removed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "removed_lines" ADD CONSTRAINT "removed_lines_cart_id_carts_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."carts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "removed_lines" ADD CONSTRAINT "removed_lines_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "removed_lines" ADD CONSTRAINT "removed_lines_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "removed_lines" ADD CONSTRAINT "removed_lines_removed_by_users_id_fk" FOREIGN KEY ("removed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "removed_lines_cart_idx" ON "removed_lines" USING btree ("cart_id","removed_at");
