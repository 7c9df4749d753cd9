ALTER TABLE "order_shares" ADD COLUMN "original_total_cents" integer;--> statement-breakpoint
ALTER TABLE "order_shares" ADD COLUMN "paid_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "original_total_cents" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "members" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "adjustments" jsonb DEFAULT '[]'::jsonb NOT NULL;