ALTER TABLE "notifications" ADD COLUMN "cart_id" uuid;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "line_id" uuid;