ALTER TABLE "otp_failures" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "otp_failures" ADD COLUMN "email_digest" text;--> statement-breakpoint
CREATE INDEX "otp_failures_email_idx" ON "otp_failures" USING btree ("email_digest","address","created_at");