-- cart_write_batch(writes, max): a batch of cart changes (a JSON array) in one statement and one
-- commit. One row per change, in order; each cart's view comes once, on the row of its last
-- change. A change's keys are cart_write()'s arguments without `p_`, in camel case: op, cart,
-- user, product, line, quantity, change, restoreSeconds, now, hiddenFrom (an array of ids, or
-- null).
-- An unexpected failure of one change rolls back that change alone and answers 'error': the
-- batch first runs in one subtransaction, and only if a change fails is it run again with a
-- subtransaction per change (one each costs as much as a fifth of a change).
-- The changes that landed are settled once for the batch (cart_write_settle(): activity
-- entries, carts' updated_at, sessions' versions).
-- Applied with CREATE OR REPLACE after the migrations on every start (src/db/functions.ts): edit
-- the body here, no migration needed. A new signature needs a migration that drops the old one.
CREATE OR REPLACE FUNCTION cart_write_batch(p_writes json, p_max integer)
RETURNS TABLE (
  verdict text, product_stock integer, already_in_cart integer, role text, order_number integer,
  closes_at timestamptz, view json, error text
) LANGUAGE plpgsql AS $$
DECLARE
  w json;
  -- A change of pass 1, its fields typed.
  c record;
  -- Pass 1's contexts (cart_write_context()), one per cart and member: their keys.
  v_ctx_keys text[] := '{}';
  v_ctxs cart_write_context[] := '{}';
  k integer;
  n integer;
  -- cart_write_core()'s answer for the change at hand ('error' when pass 2 caught its failure).
  r record;
  v_apart boolean;
  v_carts uuid[];
  v_verdicts text[];
  v_stocks integer[];
  v_already integer[];
  v_roles text[];
  v_orders integer[];
  v_closes timestamptz[];
  v_errors text[];
  v_landed_carts uuid[];
  v_entries activity[];
  v_view_carts uuid[] := '{}';
  v_emit boolean[] := '{}';
  -- A row of cart_write_set(), and the activity entry made of it.
  s record;
  e activity;
BEGIN
  -- Pass 0: a batch of independent adds and removals as a set (cart_write_set(): a statement for
  -- the batch, not several per change), in one subtransaction. Any other batch it answers with no
  -- rows, and a failure in it (a bug) rolls it back: both leave the batch to the passes below.
  n := 0;
  v_carts := '{}'; v_verdicts := '{}'; v_stocks := '{}'; v_already := '{}';
  v_roles := '{}'; v_orders := '{}'; v_closes := '{}'; v_errors := '{}';
  v_landed_carts := '{}'; v_entries := '{}';
  BEGIN
    FOR s IN SELECT * FROM cart_write_set(p_writes, p_max) LOOP
      n := n + 1;
      v_carts[n] := s.cart;
      v_verdicts[n] := s.verdict;
      v_stocks[n] := s.product_stock;
      v_already[n] := s.already_in_cart;
      v_roles[n] := s.role;
      v_orders[n] := s.order_number;
      v_closes[n] := s.closes_at;
      IF s.verdict = 'ok' THEN
        e.session_id := s.session_id;
        e.at := s.at;
        e.actor_id := s.actor_id;
        e.actor_name := s.actor_name;
        e.type := s.type;
        e.details := s.details;
        e.line_id := s.line_id;
        e.hidden_from := s.hidden_from;
        v_landed_carts := v_landed_carts || s.cart;
        v_entries := v_entries || e;
      END IF;
    END LOOP;
  EXCEPTION WHEN OTHERS THEN
    n := 0;
  END;
  -- Pass 1 (v_apart false): every change in one subtransaction. Pass 2, only after a failure in
  -- pass 1 (whose changes are all rolled back): a subtransaction per change.
  FOREACH v_apart IN ARRAY (CASE WHEN n > 0 THEN '{}' ELSE ARRAY[false, true] END) LOOP
    BEGIN
      n := 0;
      v_carts := '{}'; v_verdicts := '{}'; v_stocks := '{}'; v_already := '{}';
      v_roles := '{}'; v_orders := '{}'; v_closes := '{}'; v_errors := '{}';
      v_landed_carts := '{}'; v_entries := '{}';
      -- Pass 1 reads the whole array in one go (each change's fields parsed once, not once per
      -- field); pass 2 reads each change inside its own subtransaction (cart_write_json()), so
      -- that even a malformed change fails alone.
      FOR c IN SELECT * FROM json_to_recordset(CASE WHEN NOT v_apart THEN p_writes ELSE '[]' END)
          AS x(op text, cart uuid, "user" uuid, product uuid, line uuid, quantity integer,
            change integer, "restoreSeconds" integer, now timestamptz, "hiddenFrom" uuid[]) LOOP
        n := n + 1;
        v_carts[n] := c.cart;
        -- A member's changes to a cart share its context, read (and the cart locked) at the first.
        k := array_position(v_ctx_keys, c.cart::text || c."user"::text);
        IF k IS NULL THEN
          v_ctx_keys := v_ctx_keys || (c.cart::text || c."user"::text);
          v_ctxs := v_ctxs || cart_write_context(c.cart, c."user");
          k := cardinality(v_ctx_keys);
        END IF;
        -- An assignment, not a query: no executor round for the call.
        r := cart_write_core(c.op, c.cart, c."user", c.product, c.line, c.quantity, c.change,
          c."restoreSeconds", p_max, c.now, c."hiddenFrom", v_ctxs[k]);
        v_verdicts[n] := r.verdict;
        v_stocks[n] := r.product_stock;
        v_already[n] := r.already_in_cart;
        v_roles[n] := r.role;
        v_orders[n] := r.order_number;
        v_closes[n] := r.closes_at;
        IF r.verdict IN ('ok', 'pending') THEN
          v_landed_carts := v_landed_carts || c.cart;
          v_entries := v_entries || r.entry;
        END IF;
      END LOOP;
      FOR w IN SELECT value FROM json_array_elements(CASE WHEN v_apart THEN p_writes ELSE '[]' END)
          LOOP
        n := n + 1;
        v_carts[n] := NULL;
        BEGIN
          v_carts[n] := (w->>'cart')::uuid;
          SELECT * INTO r FROM cart_write_json(w, p_max);
        EXCEPTION WHEN OTHERS THEN
          v_errors[n] := SQLERRM;
          SELECT 'error' AS verdict, NULL::integer AS product_stock,
            NULL::integer AS already_in_cart, NULL::text AS role, NULL::integer AS order_number,
            NULL::timestamptz AS closes_at, NULL::activity AS entry
          INTO r;
        END;
        v_verdicts[n] := r.verdict;
        v_stocks[n] := r.product_stock;
        v_already[n] := r.already_in_cart;
        v_roles[n] := r.role;
        v_orders[n] := r.order_number;
        v_closes[n] := r.closes_at;
        IF r.verdict IN ('ok', 'pending') THEN
          v_landed_carts := v_landed_carts || v_carts[n];
          v_entries := v_entries || r.entry;
        END IF;
      END LOOP;
      EXIT;
    EXCEPTION WHEN OTHERS THEN
      IF v_apart THEN
        RAISE;
      END IF;
    END;
  END LOOP;
  PERFORM cart_write_settle(v_landed_carts, v_entries);
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
