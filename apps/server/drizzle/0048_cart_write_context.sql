-- A batch of cart changes reads each (cart, member)'s lock, role, deadline and budget once
-- (cart_write_context()) and hands it to cart_write_core() for each of their changes: a type for
-- it, and cart_write_core() gets a parameter for it, so the old one is dropped here and made again
-- on start (src/db/functions.ts).
CREATE TYPE cart_write_context AS (
  status text, session_id uuid, role text, actor_name text, closes_at timestamptz,
  locked_at timestamptz, order_number integer, budget_cents integer, budget_mode text
);
--> statement-breakpoint
DROP FUNCTION IF EXISTS cart_write_core(text, uuid, uuid, uuid, uuid, integer, integer, integer, integer, timestamptz, uuid[]);
