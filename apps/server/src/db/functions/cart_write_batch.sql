-- cart_write_batch(writes, max): a batch of cart changes (a JSON array) in one statement and one
-- commit, each change through cart_write_core() in a subtransaction of its own (an unexpected
-- failure rolls back that change alone and answers 'error'). One row per change, in order; each
-- cart's view comes once, on the row of its last change. A change's keys are cart_write()'s
-- arguments without `p_`, in camel case: op, cart, user, product, line, quantity, change,
-- restoreSeconds, now, hiddenFrom (an array of ids, or null).
-- Applied with CREATE OR REPLACE after the migrations on every start (src/db/functions.ts): edit
-- the body here, no migration needed. A new signature needs a migration that drops the old one.
CREATE OR REPLACE FUNCTION cart_write_batch(p_writes json, p_max integer)
RETURNS TABLE (
  verdict text, product_stock integer, already_in_cart integer, role text, order_number integer,
  closes_at timestamptz, view json, error text
) LANGUAGE plpgsql AS $$
DECLARE
  w json;
  r record;
  n integer := 0;
  v_carts uuid[] := '{}';
  v_verdicts text[] := '{}';
  v_stocks integer[] := '{}';
  v_already integer[] := '{}';
  v_roles text[] := '{}';
  v_orders integer[] := '{}';
  v_closes timestamptz[] := '{}';
  v_errors text[] := '{}';
  v_view_carts uuid[] := '{}';
  v_emit boolean[] := '{}';
BEGIN
  FOR w IN SELECT value FROM json_array_elements(p_writes) LOOP
    n := n + 1;
    v_carts[n] := NULL;
    BEGIN
      v_carts[n] := (w->>'cart')::uuid;
      SELECT * INTO r FROM cart_write_core(
        w->>'op', v_carts[n], (w->>'user')::uuid, (w->>'product')::uuid,
        (w->>'line')::uuid, (w->>'quantity')::integer, (w->>'change')::integer,
        (w->>'restoreSeconds')::integer, p_max, (w->>'now')::timestamptz,
        (SELECT array_agg(h::uuid) FROM json_array_elements_text(
          CASE WHEN json_typeof(w->'hiddenFrom') = 'array' THEN w->'hiddenFrom' END) h));
      v_verdicts[n] := r.verdict;
      v_stocks[n] := r.product_stock;
      v_already[n] := r.already_in_cart;
      v_roles[n] := r.role;
      v_orders[n] := r.order_number;
      v_closes[n] := r.closes_at;
      v_errors[n] := NULL;
    EXCEPTION WHEN OTHERS THEN
      v_verdicts[n] := 'error';
      v_stocks[n] := NULL;
      v_already[n] := NULL;
      v_roles[n] := NULL;
      v_orders[n] := NULL;
      v_closes[n] := NULL;
      v_errors[n] := SQLERRM;
    END;
  END LOOP;
  -- Each cart's view goes out once, on the row of its last change in the batch; the server
  -- gives it to that cart's earlier rows too (as 0013 did here, without sending it again).
  FOR i IN REVERSE n..1 LOOP
    v_emit[i] := v_verdicts[i] IN ('ok', 'pending', 'unchanged')
      AND array_position(v_view_carts, v_carts[i]) IS NULL;
    IF v_emit[i] THEN
      v_view_carts := v_view_carts || v_carts[i];
    END IF;
  END LOOP;
  FOR i IN 1..n LOOP
    verdict := v_verdicts[i];
    product_stock := v_stocks[i];
    already_in_cart := v_already[i];
    role := v_roles[i];
    order_number := v_orders[i];
    closes_at := v_closes[i];
    error := v_errors[i];
    view := CASE WHEN v_emit[i] THEN cart_view(v_carts[i]) END;
    RETURN NEXT;
  END LOOP;
END
$$;
