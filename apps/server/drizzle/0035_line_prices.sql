-- A line keeps the price it was added at, and the price a member last acknowledged, so the cart
-- can show a changed price beside the old one. Lines of open carts take their product's price now
-- as the price they were added at (nothing changed for them yet); ended carts' lines are frozen
-- (unit_price_cents) and need neither.
ALTER TABLE "cart_lines" ADD COLUMN "added_price_cents" integer;--> statement-breakpoint
ALTER TABLE "cart_lines" ADD COLUMN "acknowledged_price_cents" integer;--> statement-breakpoint
ALTER TABLE "removed_lines" ADD COLUMN "added_price_cents" integer;--> statement-breakpoint
ALTER TABLE "removed_lines" ADD COLUMN "acknowledged_price_cents" integer;--> statement-breakpoint
UPDATE "cart_lines" AS l SET "added_price_cents" = p."price_cents"
  FROM "products" p WHERE p."id" = l."product_id" AND l."unit_price_cents" IS NULL;
