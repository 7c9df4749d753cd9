-- A person's memberships by time: buy again reads those of the last year through this index, never
-- a whole history; the user_id prefix still serves every lookup by person alone.
DROP INDEX "session_members_user_idx";--> statement-breakpoint
CREATE INDEX "session_members_user_created_idx" ON "session_members" USING btree ("user_id","created_at");