-- cart_write(...): one cart change on its own, cart_write_core() and its bookkeeping
-- (cart_write_settle()), plus the cart's view (cart_view()) after an 'ok', 'pending' or
-- 'unchanged'. p_hidden: an add's members it is hidden from (cart_write_core()).
-- Applied with CREATE OR REPLACE after the migrations on every start (src/db/functions.ts): edit
-- the body here, no migration needed. A new signature needs a migration that drops the old one.
CREATE OR REPLACE FUNCTION cart_write(
  p_op text, p_cart uuid, p_user uuid, p_product uuid, p_line uuid, p_quantity integer,
  p_change integer, p_restore_seconds integer, p_max integer, p_now timestamptz,
  p_hidden uuid[] DEFAULT NULL,
  OUT verdict text, OUT product_stock integer, OUT already_in_cart integer, OUT role text,
  OUT order_number integer, OUT closes_at timestamptz, OUT view json
) LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  r := cart_write_core(p_op, p_cart, p_user, p_product, p_line, p_quantity, p_change,
    p_restore_seconds, p_max, p_now, p_hidden);
  verdict := r.verdict;
  product_stock := r.product_stock;
  already_in_cart := r.already_in_cart;
  role := r.role;
  order_number := r.order_number;
  closes_at := r.closes_at;
  IF verdict IN ('ok', 'pending') THEN
    PERFORM cart_write_settle(ARRAY[p_cart], ARRAY[r.entry]);
  END IF;
  IF verdict IN ('ok', 'pending', 'unchanged') THEN
    view := cart_view(p_cart);
  END IF;
END
$$;
