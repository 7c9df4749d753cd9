-- Cart reads and writes as one database call each (docs/decisions/004-cart-writes-in-one-call.md).
-- The embedded database runs one statement at a time for the whole process, and each statement
-- sent from JavaScript costs about as much as a whole function call here; a cart change used to
-- take eight (begin, lock, stock, write, version, commit, members, lines).

-- Everything a cart answer shows: the cart, its session, the members and the lines with their
-- products and who added them (oldest first). Prices of ended sessions are the frozen ones.
-- PL/pgSQL keeps the plan between calls (an SQL function is planned on every call), and json is
-- cheaper to build than jsonb.
CREATE FUNCTION cart_view(p_cart uuid) RETURNS json
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT json_build_object(
    'cart', json_build_object(
      'id', c.id, 'status', c.status, 'createdAt', c.created_at, 'updatedAt', c.updated_at),
    'session', json_build_object(
      'id', s.id, 'name', s.name, 'status', s.status, 'creatorId', s.creator_id,
      'version', s.version),
    'members', (
      SELECT coalesce(json_agg(json_build_object(
        'userId', m.user_id, 'name', u.name, 'role', m.role) ORDER BY m.created_at, m.user_id), '[]')
      FROM session_members m JOIN users u ON u.id = m.user_id
      WHERE m.session_id = s.id),
    'lines', (
      SELECT coalesce(json_agg(json_build_object(
        'id', l.id, 'quantity', l.quantity, 'addedAt', l.added_at,
        'unitPriceCents', coalesce(l.unit_price_cents, p.price_cents),
        'productId', p.id, 'productName', p.name, 'slug', p.slug, 'imageHash', p.image_hash,
        'color', p.color, 'userId', u.id, 'userName', u.name) ORDER BY l.added_at, l.id), '[]')
      FROM cart_lines l
      JOIN products p ON p.id = l.product_id
      JOIN users u ON u.id = l.added_by
      WHERE l.cart_id = c.id))
  FROM carts c JOIN sessions s ON s.id = c.session_id
  WHERE c.id = p_cart);
END
$$;
--> statement-breakpoint

-- One cart change, all or nothing, with DESIGN section 4's rules. The caller (carts service) turns
-- a refusal's verdict into the HTTP answer and its message; a refusal has changed nothing.
--   p_op: 'add' (p_amount of the product to the caller's own line), 'step' (p_amount +1 or -1 on
--   a line), 'remove' (a line), 'clear' (every line; creator only).
--   p_line: the line to act on (the creator may name anyone's); null: the caller's own line.
-- Verdicts: ok, unchanged (minus at 1), no_cart (not a member, pending, or no such cart), viewer,
-- not_creator, ended, no_product, no_line, not_own, stock (with the stock and what the cart holds),
-- line_full (p_max reached). ok and unchanged come with the cart's view.
CREATE FUNCTION cart_write(
  p_op text, p_cart uuid, p_user uuid, p_product uuid, p_line uuid, p_amount integer,
  p_max integer, p_now timestamptz,
  OUT verdict text, OUT product_stock integer, OUT already_in_cart integer, OUT view json
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
    IF p_op = 'remove' THEN
      DELETE FROM cart_lines WHERE id = v_line;
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
    ELSIF p_amount = -1 THEN
      IF v_line_quantity <= 1 THEN
        -- Minus at 1 does nothing (SPEC 5): no write, no new version.
        verdict := 'unchanged'; view := cart_view(p_cart); RETURN;
      END IF;
      UPDATE cart_lines SET quantity = quantity - 1, updated_at = p_now WHERE id = v_line;
    ELSE
      RAISE EXCEPTION 'cart_write: a step is +1 or -1, not %', p_amount;
    END IF;

  ELSIF p_op = 'clear' THEN
    DELETE FROM cart_lines WHERE cart_id = p_cart;

  ELSE
    RAISE EXCEPTION 'cart_write: unknown op %', p_op;
  END IF;

  UPDATE carts SET updated_at = p_now WHERE id = p_cart;
  UPDATE sessions SET version = version + 1, updated_at = p_now WHERE id = v_session;
  verdict := 'ok';
  view := cart_view(p_cart);
END
$$;
