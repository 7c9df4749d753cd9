-- An add can be private from the start: cart_write_core() and cart_write() gain p_hidden (the
-- members the new line is hidden from). A new argument, so the old signatures are dropped; every
-- start makes the functions again from their files.
DROP FUNCTION IF EXISTS cart_write(text, uuid, uuid, uuid, uuid, integer, integer, integer, integer, timestamptz);--> statement-breakpoint
DROP FUNCTION IF EXISTS cart_write_core(text, uuid, uuid, uuid, uuid, integer, integer, integer, integer, timestamptz);
