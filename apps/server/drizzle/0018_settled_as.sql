ALTER TABLE "order_shares" ADD COLUMN "settled_as" text;--> statement-breakpoint
-- How a share was settled: shares confirmed before this column were the payee confirming a
-- transfer (the payee's own share, settled by paying the shop, stays null).
UPDATE "order_shares" s SET "settled_as" = 'transfer' FROM "orders" o
  WHERE o.id = s.order_id AND s.status = 'confirmed' AND s.user_id IS DISTINCT FROM o.payee_id;
