ALTER TABLE "cart_lines" ADD COLUMN "pending_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "removed_lines" ADD COLUMN "pending_at" timestamp with time zone;