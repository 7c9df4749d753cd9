-- cart_write_core() answers its activity entry instead of writing it (cart_write_settle() writes a
-- batch's entries, carts and session versions once): its result type changes, so the old one is
-- dropped here and made again on start (src/db/functions.ts).
DROP FUNCTION IF EXISTS cart_write_core(text, uuid, uuid, uuid, uuid, integer, integer, integer, integer, timestamptz, uuid[]);
