-- The cart's line writes answer the gate's verdict with the role, the order's number and the
-- deadline that word a refusal: new result columns, so the three functions are dropped here and
-- created again from src/db/functions on the start that follows. Their arguments are renamed
-- too: the one `p_amount` (how many to add, a step's +1 or -1, or restore's window in seconds)
-- is now three, `p_quantity`, `p_change` and `p_restore_seconds` (cart_write_batch()'s JSON
-- keys `quantity`, `change`, `restoreSeconds`), so the new signatures have ten arguments; the
-- drops below name the eight-argument ones of the release before.
DROP FUNCTION IF EXISTS cart_write_batch(json, integer);--> statement-breakpoint
DROP FUNCTION IF EXISTS cart_write(text, uuid, uuid, uuid, uuid, integer, integer, timestamptz);--> statement-breakpoint
DROP FUNCTION IF EXISTS cart_write_core(text, uuid, uuid, uuid, uuid, integer, integer, timestamptz);
