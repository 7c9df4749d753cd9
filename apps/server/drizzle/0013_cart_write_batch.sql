-- Group commit (issue 22; docs/decisions/012): the cart changes waiting in the embedded database's
-- queue go in as one statement, cart_write_batch(), so they share one commit instead of paying one
-- each. Each change is cart_write_core() on its own, in a subtransaction: one that fails
-- unexpectedly is rolled back alone and answers 'error' with its message; the others stand. The
-- cart's JSON answer is most of a write's cost there, so a batch builds it once per cart, after its
-- last change, and answers every change of that cart with it (as if the later ones had come just
-- after). cart_write() stays what it was for everyone else: cart_write_core() plus cart_view().
CREATE FUNCTION cart_write_core(
  p_op text, p_cart uuid, p_user uuid, p_product uuid, p_line uuid, p_amount integer,
  p_max integer, p_now timestamptz,
  OUT verdict text, OUT product_stock integer, OUT already_in_cart integer
) LANGUAGE plpgsql AS $$
DECLARE
  v_status text;
  v_session uuid;
  v_role text;
  v_stock integer;
  v_in_cart integer;
  v_own integer;
  v_line uuid;
  v_line_owner uuid;
  v_line_quantity integer;
  v_actor_name text;
  v_product_name text;
  v_owner_name text;
  v_type text;
  v_details jsonb;
BEGIN
  -- Locking the cart row first makes changes to one cart apply one at a time (50 concurrent +1s
  -- give +50). Each later statement reads what committed before the lock was granted (a new
  -- snapshot per statement), so the role, the stock and the lines below are current.
  SELECT c.status, c.session_id INTO v_status, v_session
  FROM carts c
  WHERE c.id = p_cart
  FOR UPDATE;
  SELECT m.role INTO v_role
  FROM session_members m
  WHERE m.session_id = v_session AND m.user_id = p_user;

  IF v_role IS NULL OR v_role = 'pending' THEN
    verdict := 'no_cart'; RETURN;
  ELSIF v_role = 'viewer' THEN
    verdict := 'viewer'; RETURN;
  ELSIF p_op = 'clear' AND v_role <> 'creator' THEN
    verdict := 'not_creator'; RETURN;
  ELSIF v_status <> 'active' THEN
    verdict := 'ended'; RETURN;
  END IF;

  IF p_op = 'add' THEN
    IF p_amount IS NULL OR p_amount < 1 THEN
      RAISE EXCEPTION 'cart_write: add needs a positive amount, not %', p_amount;
    END IF;
    SELECT p.stock, coalesce(sum(l.quantity), 0),
           coalesce(sum(l.quantity) FILTER (WHERE l.added_by = p_user), 0)
    INTO v_stock, v_in_cart, v_own
    FROM products p
    LEFT JOIN cart_lines l ON l.product_id = p.id AND l.cart_id = p_cart
    WHERE p.id = p_product
    GROUP BY p.id;
    IF v_stock IS NULL THEN
      verdict := 'no_product'; RETURN;
    ELSIF v_in_cart + p_amount > v_stock THEN
      verdict := 'stock'; product_stock := v_stock; already_in_cart := v_in_cart; RETURN;
    ELSIF v_own + p_amount > p_max THEN
      verdict := 'line_full'; RETURN;
    END IF;
    INSERT INTO cart_lines AS l (cart_id, product_id, added_by, quantity, added_at, updated_at)
    VALUES (p_cart, p_product, p_user, p_amount, p_now, p_now)
    ON CONFLICT (cart_id, product_id, added_by)
    DO UPDATE SET quantity = l.quantity + p_amount, updated_at = p_now;
    SELECT name INTO v_product_name FROM products WHERE id = p_product;
    v_type := 'item.added';
    v_details := jsonb_build_object('productId', p_product, 'product', v_product_name,
      'quantity', p_amount);

  ELSIF p_op IN ('step', 'remove') THEN
    SELECT l.id, l.added_by, l.quantity INTO v_line, v_line_owner, v_line_quantity
    FROM cart_lines l
    WHERE l.cart_id = p_cart AND l.product_id = p_product
      AND (l.id = p_line OR (p_line IS NULL AND l.added_by = p_user));
    IF v_line IS NULL THEN
      verdict := 'no_line'; RETURN;
    ELSIF v_line_owner <> p_user AND v_role <> 'creator' THEN
      verdict := 'not_own'; RETURN;
    END IF;
    SELECT p.name, u.name INTO v_product_name, v_owner_name
    FROM products p, users u WHERE p.id = p_product AND u.id = v_line_owner;
    IF p_op = 'remove' THEN
      DELETE FROM cart_lines WHERE id = v_line;
      v_type := 'item.removed';
      v_details := jsonb_build_object('productId', p_product, 'product', v_product_name,
        'quantity', v_line_quantity, 'lineOf', v_owner_name);
    ELSIF p_amount = 1 THEN
      IF v_line_quantity >= p_max THEN
        verdict := 'line_full'; RETURN;
      END IF;
      SELECT p.stock, coalesce(sum(l.quantity), 0) INTO v_stock, v_in_cart
      FROM products p
      LEFT JOIN cart_lines l ON l.product_id = p.id AND l.cart_id = p_cart
      WHERE p.id = p_product
      GROUP BY p.id;
      IF v_in_cart + 1 > v_stock THEN
        verdict := 'stock'; product_stock := v_stock; already_in_cart := v_in_cart; RETURN;
      END IF;
      UPDATE cart_lines SET quantity = quantity + 1, updated_at = p_now WHERE id = v_line;
      v_type := 'item.quantity';
      v_details := jsonb_build_object('productId', p_product, 'product', v_product_name,
        'quantity', v_line_quantity + 1, 'change', 1, 'lineOf', v_owner_name);
    ELSIF p_amount = -1 THEN
      IF v_line_quantity <= 1 THEN
        -- Minus at 1 does nothing (SPEC 5): no write, no new version.
        verdict := 'unchanged'; RETURN;
      END IF;
      UPDATE cart_lines SET quantity = quantity - 1, updated_at = p_now WHERE id = v_line;
      v_type := 'item.quantity';
      v_details := jsonb_build_object('productId', p_product, 'product', v_product_name,
        'quantity', v_line_quantity - 1, 'change', -1, 'lineOf', v_owner_name);
    ELSE
      RAISE EXCEPTION 'cart_write: a step is +1 or -1, not %', p_amount;
    END IF;

  ELSIF p_op = 'clear' THEN
    WITH gone AS (DELETE FROM cart_lines WHERE cart_id = p_cart RETURNING quantity)
    SELECT jsonb_build_object('lines', count(*), 'items', coalesce(sum(quantity), 0))
    INTO v_details FROM gone;
    v_type := 'cart.cleared';

  ELSE
    RAISE EXCEPTION 'cart_write: unknown op %', p_op;
  END IF;

  UPDATE carts SET updated_at = p_now WHERE id = p_cart;
  UPDATE sessions SET version = version + 1, updated_at = p_now WHERE id = v_session;
  -- The activity log's entry, in this same transaction (issue 21).
  SELECT name INTO v_actor_name FROM users WHERE id = p_user;
  INSERT INTO activity (session_id, at, actor_id, actor_name, type, details)
  VALUES (v_session, p_now, p_user, v_actor_name, v_type, v_details);
  verdict := 'ok';
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cart_write(
  p_op text, p_cart uuid, p_user uuid, p_product uuid, p_line uuid, p_amount integer,
  p_max integer, p_now timestamptz,
  OUT verdict text, OUT product_stock integer, OUT already_in_cart integer, OUT view json
) LANGUAGE plpgsql AS $$
BEGIN
  SELECT c.verdict, c.product_stock, c.already_in_cart INTO verdict, product_stock, already_in_cart
  FROM cart_write_core(p_op, p_cart, p_user, p_product, p_line, p_amount, p_max, p_now) c;
  IF verdict IN ('ok', 'unchanged') THEN
    view := cart_view(p_cart);
  END IF;
END
$$;
--> statement-breakpoint
CREATE FUNCTION cart_write_batch(p_writes json, p_max integer)
RETURNS TABLE (
  verdict text, product_stock integer, already_in_cart integer, view json, error text
) LANGUAGE plpgsql AS $$
DECLARE
  w json;
  r record;
  n integer := 0;
  v_carts uuid[] := '{}';
  v_verdicts text[] := '{}';
  v_stocks integer[] := '{}';
  v_already integer[] := '{}';
  v_errors text[] := '{}';
  v_view_carts uuid[] := '{}';
  v_views json[] := '{}';
  v_at integer;
BEGIN
  FOR w IN SELECT value FROM json_array_elements(p_writes) LOOP
    n := n + 1;
    v_carts[n] := NULL;
    BEGIN
      v_carts[n] := (w->>'cart')::uuid;
      SELECT * INTO r FROM cart_write_core(
        w->>'op', v_carts[n], (w->>'user')::uuid, (w->>'product')::uuid,
        (w->>'line')::uuid, (w->>'amount')::integer, p_max, (w->>'now')::timestamptz);
      v_verdicts[n] := r.verdict;
      v_stocks[n] := r.product_stock;
      v_already[n] := r.already_in_cart;
      v_errors[n] := NULL;
    EXCEPTION WHEN OTHERS THEN
      v_verdicts[n] := 'error';
      v_stocks[n] := NULL;
      v_already[n] := NULL;
      v_errors[n] := SQLERRM;
    END;
  END LOOP;
  FOR i IN 1..n LOOP
    verdict := v_verdicts[i];
    product_stock := v_stocks[i];
    already_in_cart := v_already[i];
    error := v_errors[i];
    view := NULL;
    IF verdict IN ('ok', 'unchanged') THEN
      v_at := array_position(v_view_carts, v_carts[i]);
      IF v_at IS NULL THEN
        v_view_carts := v_view_carts || v_carts[i];
        v_views := v_views || cart_view(v_carts[i]);
        v_at := cardinality(v_view_carts);
      END IF;
      view := v_views[v_at];
    END IF;
    RETURN NEXT;
  END LOOP;
END
$$;
