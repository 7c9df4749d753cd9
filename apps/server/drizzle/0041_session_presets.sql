-- Session presets: who may check out (checkout_by, 'creator' for every session made before, the
-- rule they were made under), the approvers of "ask first" lines, and each member's budget mode
-- and child mark. The gate reads checkout_by: permission_of() gains the rule's opened roles (its
-- result changes, so it is dropped here and made again on start) and session_gate() the settings
-- a session has open (a new argument, so the old signature is dropped).
ALTER TABLE "session_members" ADD COLUMN "budget_mode" text DEFAULT 'warn' NOT NULL;--> statement-breakpoint
ALTER TABLE "session_members" ADD COLUMN "child" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "checkout_by" text DEFAULT 'creator' NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "approvers" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "session_members" ADD CONSTRAINT "session_members_budget_mode" CHECK ("session_members"."budget_mode" in ('warn', 'ask'));--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_checkout_by" CHECK ("sessions"."checkout_by" in ('creator', 'members'));--> statement-breakpoint
DROP FUNCTION IF EXISTS permission_of(text);--> statement-breakpoint
DROP FUNCTION IF EXISTS session_gate(text, text, text, integer, timestamptz, timestamptz, timestamptz);
