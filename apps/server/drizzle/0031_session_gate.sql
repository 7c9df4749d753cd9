-- The cart's line writes answer the gate's verdict with the role, the order's number and the
-- deadline that word a refusal: new result columns, so the three functions are dropped here and
-- created again from src/db/functions on the start that follows.
DROP FUNCTION IF EXISTS cart_write_batch(json, integer);--> statement-breakpoint
DROP FUNCTION IF EXISTS cart_write(text, uuid, uuid, uuid, uuid, integer, integer, timestamptz);--> statement-breakpoint
DROP FUNCTION IF EXISTS cart_write_core(text, uuid, uuid, uuid, uuid, integer, integer, timestamptz);
