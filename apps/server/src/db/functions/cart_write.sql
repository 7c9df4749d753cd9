-- cart_write(...): one cart change on its own, cart_write_core() plus the cart's view
-- (cart_view()) after an 'ok', 'pending' or 'unchanged'. p_hidden: an add's members it is hidden
-- from (cart_write_core()).
-- Applied with CREATE OR REPLACE after the migrations on every start (src/db/functions.ts): edit
-- the body here, no migration needed. A new signature needs a migration that drops the old one.
CREATE OR REPLACE FUNCTION cart_write(
  p_op text, p_cart uuid, p_user uuid, p_product uuid, p_line uuid, p_quantity integer,
  p_change integer, p_restore_seconds integer, p_max integer, p_now timestamptz,
  p_hidden uuid[] DEFAULT NULL,
  OUT verdict text, OUT product_stock integer, OUT already_in_cart integer, OUT role text,
  OUT order_number integer, OUT closes_at timestamptz, OUT view json
) LANGUAGE plpgsql AS $$
BEGIN
  SELECT c.verdict, c.product_stock, c.already_in_cart, c.role, c.order_number, c.closes_at
  INTO verdict, product_stock, already_in_cart, role, order_number, closes_at
  FROM cart_write_core(p_op, p_cart, p_user, p_product, p_line, p_quantity, p_change,
    p_restore_seconds, p_max, p_now, p_hidden) c;
  IF verdict IN ('ok', 'pending', 'unchanged') THEN
    view := cart_view(p_cart);
  END IF;
END
$$;
