ALTER TABLE "cart_lines" ADD COLUMN "staple" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "removed_lines" ADD COLUMN "staple" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "series_rule" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "series_time_zone" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "series_anchor" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "series_next_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "previous_session_id" uuid;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_previous_session_id_sessions_id_fk" FOREIGN KEY ("previous_session_id") REFERENCES "public"."sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_previous_session_idx" ON "sessions" USING btree ("previous_session_id") WHERE "sessions"."previous_session_id" is not null;--> statement-breakpoint
CREATE INDEX "sessions_series_next_idx" ON "sessions" USING btree ("series_next_at") WHERE "sessions"."series_next_at" is not null;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_series_whole" CHECK (("sessions"."series_rule" is null) = ("sessions"."series_time_zone" is null)
        and ("sessions"."series_rule" is null) = ("sessions"."series_anchor" is null)
        and ("sessions"."series_rule" is null) = ("sessions"."series_next_at" is null));