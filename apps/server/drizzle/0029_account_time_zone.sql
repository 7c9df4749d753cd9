ALTER TABLE "users" ADD COLUMN "time_zone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "time_zone_chosen" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "session_deadlines" ADD COLUMN "reminded_on_set_at" timestamp with time zone;