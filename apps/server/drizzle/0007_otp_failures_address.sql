DROP INDEX "otp_failures_user_idx";--> statement-breakpoint
ALTER TABLE "otp_failures" ADD COLUMN "address" text;--> statement-breakpoint
CREATE INDEX "otp_failures_user_idx" ON "otp_failures" USING btree ("user_id","address","created_at");