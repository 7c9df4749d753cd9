-- Free lines: a cart line names a product or has a name of its own (something the catalog does
-- not have), never both; its estimate is its unit_price_cents. Every line gets a note for whoever
-- shops and what may replace it (substitute, 'any' by default). Removed lines keep the same, so
-- Undo brings a free line back as it was. Existing lines all name a product: nothing to backfill.
ALTER TABLE "cart_lines" ALTER COLUMN "product_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "removed_lines" ALTER COLUMN "product_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "cart_lines" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "cart_lines" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "cart_lines" ADD COLUMN "substitute" text DEFAULT 'any' NOT NULL;--> statement-breakpoint
ALTER TABLE "removed_lines" ADD COLUMN "unit_price_cents" integer;--> statement-breakpoint
ALTER TABLE "removed_lines" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "removed_lines" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "removed_lines" ADD COLUMN "substitute" text DEFAULT 'any' NOT NULL;--> statement-breakpoint
ALTER TABLE "cart_lines" ADD CONSTRAINT "cart_lines_product_or_name" CHECK (("cart_lines"."product_id" is null) <> ("cart_lines"."name" is null));--> statement-breakpoint
ALTER TABLE "cart_lines" ADD CONSTRAINT "cart_lines_name_length" CHECK (char_length("cart_lines"."name") <= 120);--> statement-breakpoint
ALTER TABLE "cart_lines" ADD CONSTRAINT "cart_lines_note_length" CHECK (char_length("cart_lines"."note") <= 200);--> statement-breakpoint
ALTER TABLE "cart_lines" ADD CONSTRAINT "cart_lines_substitute" CHECK ("cart_lines"."substitute" in ('any', 'similar', 'none'));--> statement-breakpoint
ALTER TABLE "cart_lines" ADD CONSTRAINT "cart_lines_price_not_negative" CHECK ("cart_lines"."unit_price_cents" >= 0);--> statement-breakpoint
ALTER TABLE "removed_lines" ADD CONSTRAINT "removed_lines_product_or_name" CHECK (("removed_lines"."product_id" is null) <> ("removed_lines"."name" is null));--> statement-breakpoint
ALTER TABLE "removed_lines" ADD CONSTRAINT "removed_lines_name_length" CHECK (char_length("removed_lines"."name") <= 120);--> statement-breakpoint
ALTER TABLE "removed_lines" ADD CONSTRAINT "removed_lines_note_length" CHECK (char_length("removed_lines"."note") <= 200);--> statement-breakpoint
ALTER TABLE "removed_lines" ADD CONSTRAINT "removed_lines_substitute" CHECK ("removed_lines"."substitute" in ('any', 'similar', 'none'));--> statement-breakpoint
ALTER TABLE "removed_lines" ADD CONSTRAINT "removed_lines_price_not_negative" CHECK ("removed_lines"."unit_price_cents" >= 0);