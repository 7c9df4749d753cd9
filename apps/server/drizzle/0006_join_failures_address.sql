ALTER TABLE "join_failures" ADD COLUMN "address" text;--> statement-breakpoint
CREATE INDEX "join_failures_address_idx" ON "join_failures" USING btree ("address","created_at");