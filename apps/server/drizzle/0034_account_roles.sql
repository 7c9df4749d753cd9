-- Accounts gain roles across the deployment: "operator" runs the catalog (npm run operator --
-- grant|revoke EMAIL). Every existing account has none.
ALTER TABLE "users" ADD COLUMN "roles" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_roles_known" CHECK ("users"."roles" <@ array['operator']::text[]);