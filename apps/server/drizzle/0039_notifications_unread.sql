-- The unread count that every notifications list answers reads the unread rows only, not a
-- person's whole history.
CREATE INDEX "notifications_user_unread_idx" ON "notifications" USING btree ("user_id") WHERE "notifications"."read_at" is null;