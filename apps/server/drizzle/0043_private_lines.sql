ALTER TABLE "activity" ADD COLUMN "line_id" uuid;--> statement-breakpoint
ALTER TABLE "activity" ADD COLUMN "hidden_from" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "cart_lines" ADD COLUMN "hidden_from" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "removed_lines" ADD COLUMN "hidden_from" uuid[] DEFAULT '{}'::uuid[] NOT NULL;