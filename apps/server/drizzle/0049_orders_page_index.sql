-- My Orders reads a page of a person's orders newest first from indexes, never their whole
-- history: each share and payer row carries its order's sort key (placed_at, number, which never
-- change after checkout), copied from the order as the row is inserted (order_sort_key()), and
-- each index finds a person's rows in that order. The new indexes' person prefix serves every
-- lookup by person alone, so the older single-column ones go.
ALTER TABLE "order_shares" ADD COLUMN "placed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_shares" ADD COLUMN "order_number" integer;--> statement-breakpoint
ALTER TABLE "order_payers" ADD COLUMN "placed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_payers" ADD COLUMN "order_number" integer;--> statement-breakpoint
UPDATE "order_shares" s SET "placed_at" = o."placed_at", "order_number" = o."number"
  FROM "orders" o WHERE o."id" = s."order_id";--> statement-breakpoint
UPDATE "order_payers" p SET "placed_at" = o."placed_at", "order_number" = o."number"
  FROM "orders" o WHERE o."id" = p."order_id";--> statement-breakpoint
ALTER TABLE "order_shares" ALTER COLUMN "placed_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_shares" ALTER COLUMN "order_number" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_payers" ALTER COLUMN "placed_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_payers" ALTER COLUMN "order_number" SET NOT NULL;--> statement-breakpoint
DROP INDEX "order_shares_user_idx";--> statement-breakpoint
DROP INDEX "order_payers_user_idx";--> statement-breakpoint
DROP INDEX "orders_payee_idx";--> statement-breakpoint
CREATE INDEX "order_shares_user_placed_idx" ON "order_shares" USING btree ("user_id","placed_at" DESC NULLS FIRST,"order_number" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "order_payers_user_placed_idx" ON "order_payers" USING btree ("user_id","placed_at" DESC NULLS FIRST,"order_number" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "orders_payee_placed_idx" ON "orders" USING btree ("payee_id","placed_at" DESC NULLS FIRST,"number" DESC NULLS FIRST);
