-- cart_write_set(writes, max): a batch of cart changes (cart_write_batch()'s array) applied as a
-- set: one statement checks every change, one INSERT writes its adds, one DELETE its removals
-- (kept for Undo), instead of a run of statements per change. One row per change, in order (`n`),
-- with cart_write_core()'s answer for it: the same verdicts, refusals and entry fields, each
-- change's refusal its own. Only for a batch whose changes are independent of each other:
-- adds (a product, a positive quantity, not private) and removals, no two of them on one product
-- or line of one cart (stock and a line's quantity are per product and cart, so each change reads
-- the cart as the batch found it, as it would one at a time), and no member whose budget asks
-- first (member_share_over() would have to see the batch's earlier changes). Any other batch
-- answers no rows, and cart_write_batch() runs its changes one by one as before.
-- Reads (and locks) each (cart, member)'s context first with cart_write_context(), in the order
-- of their first changes as the loop does; the statement after sees all committed before.
-- Applied with CREATE OR REPLACE after the migrations on every start (src/db/functions.ts): edit
-- the body here, no migration needed. A new signature needs a migration that drops the old one.
CREATE OR REPLACE FUNCTION cart_write_set(p_writes json, p_max integer)
RETURNS TABLE (
  n bigint, cart uuid, verdict text, product_stock integer, already_in_cart integer,
  role text, order_number integer, closes_at timestamptz, session_id uuid, at timestamptz,
  actor_id uuid, actor_name text, type text, details jsonb, line_id uuid, hidden_from uuid[]
) LANGUAGE plpgsql AS $$
-- The answer's columns are named as the tables' (line_id, hidden_from, ...): a name in the
-- statements is the column's.
#variable_conflict use_column
DECLARE
  c record;
  v_carts uuid[] := '{}';
  v_users uuid[] := '{}';
  v_ctxs cart_write_context[] := '{}';
BEGIN
  IF EXISTS (SELECT 1 FROM json_to_recordset(p_writes) AS x(op text, cart uuid, "user" uuid,
        product uuid, quantity integer, "hiddenFrom" uuid[])
      WHERE x.cart IS NULL OR x."user" IS NULL OR x.op IS NULL
        OR NOT (x.op = 'remove' OR (x.op = 'add' AND x.product IS NOT NULL AND x.quantity >= 1
          AND coalesce(cardinality(x."hiddenFrom"), 0) = 0)))
    OR (SELECT count(*) <> count(DISTINCT k.key)
      FROM json_to_recordset(p_writes) AS x(cart uuid, product uuid, line uuid),
        LATERAL (VALUES ('p' || x.cart::text || coalesce(x.product::text, '')),
          ('l' || x.cart::text || x.line::text)) AS k(key)
      WHERE k.key IS NOT NULL) THEN
    RETURN;
  END IF;
  FOR c IN SELECT x.cart, x."user"
      FROM ROWS FROM (json_to_recordset(p_writes) AS (cart uuid, "user" uuid))
        WITH ORDINALITY AS x(cart, "user", n)
      GROUP BY x.cart, x."user" ORDER BY min(x.n) LOOP
    v_carts := v_carts || c.cart;
    v_users := v_users || c."user";
    v_ctxs := v_ctxs || cart_write_context(c.cart, c."user");
  END LOOP;
  -- "Ask first" decides on the member's share after their earlier changes: one at a time (the
  -- condition cart_write_core() asks before member_share_over()).
  IF EXISTS (SELECT 1 FROM unnest(v_ctxs) k
      WHERE k.budget_mode = 'ask' AND k.budget_cents IS NOT NULL AND k.role <> 'creator') THEN
    RETURN;
  END IF;
  RETURN QUERY
  WITH ch AS (
    SELECT x.n, x.op, x.cart, x."user" AS usr, x.product, x.line, x.quantity, x.now, k.status,
      k.session_id, k.role, k.actor_name, k.closes_at, k.locked_at, k.order_number,
      session_gate(CASE x.op WHEN 'add' THEN 'cart.add' ELSE 'cart.changeOwnLine' END, k.role,
        k.status, k.order_number, k.closes_at, k.locked_at, x.now) AS gate
    FROM ROWS FROM (json_to_recordset(p_writes) AS (op text, cart uuid, "user" uuid, product uuid,
        line uuid, quantity integer, now timestamptz))
      WITH ORDINALITY AS x(op, cart, "user", product, line, quantity, now, n)
    JOIN unnest(v_carts, v_users, v_ctxs) AS k(cart, usr, status, session_id, role, actor_name,
        closes_at, locked_at, order_number, budget_cents, budget_mode)
      ON k.cart = x.cart AND k.usr = x."user"
  ),
  -- An add: the product's stock, name and price, and what the cart (and the member's line)
  -- already holds of it.
  adding AS (
    SELECT ch.n, p.stock, p.name, p.price_cents, coalesce(sum(l.quantity), 0) AS in_cart,
      coalesce(sum(l.quantity) FILTER (WHERE l.added_by = ch.usr), 0) AS own
    FROM ch JOIN products p ON p.id = ch.product
    LEFT JOIN cart_lines l ON l.product_id = p.id AND l.cart_id = ch.cart
    WHERE ch.op = 'add' AND ch.gate = 'ok'
    GROUP BY ch.n, p.id
  ),
  -- A removal: the line with its names (its product's or its own, its adder's) and private mark.
  removing AS (
    SELECT ch.n, l.*
    FROM ch, LATERAL (
      SELECT l.id, l.added_by, l.quantity, l.product_id, coalesce(p.name, l.name) AS name,
        u.name AS owner_name, l.hidden_from
      FROM cart_lines l JOIN users u ON u.id = l.added_by
      LEFT JOIN products p ON p.id = l.product_id
      WHERE l.cart_id = ch.cart
        AND ((l.id = ch.line AND (l.product_id = ch.product OR l.product_id IS NULL))
          OR (ch.line IS NULL AND l.product_id = ch.product AND l.added_by = ch.usr))
      LIMIT 1) l
    WHERE ch.op = 'remove' AND ch.gate = 'ok'
  ),
  checked AS (
    SELECT ch.*, a.stock, a.name AS product_name, a.price_cents, a.in_cart,
      r.id AS line_id, r.added_by AS owner, r.quantity AS line_quantity,
      r.product_id AS line_product, r.name AS line_name, r.owner_name, r.hidden_from,
      CASE
        WHEN ch.gate <> 'ok' THEN ch.gate
        WHEN ch.op = 'add' AND a.stock IS NULL THEN 'no_product'
        WHEN ch.op = 'add' AND a.in_cart + ch.quantity > a.stock THEN 'stock'
        WHEN ch.op = 'add' AND a.own + ch.quantity > p_max THEN 'line_full'
        WHEN ch.op = 'remove' AND r.id IS NULL THEN 'no_line'
        WHEN ch.op = 'remove' AND r.added_by <> ch.usr AND session_gate('cart.changeAnyLine',
          ch.role, ch.status, ch.order_number, ch.closes_at, ch.locked_at, ch.now) <> 'ok'
          THEN 'not_own'
        ELSE 'ok'
      END AS verdict
    FROM ch LEFT JOIN adding a ON a.n = ch.n LEFT JOIN removing r ON r.n = ch.n
  ),
  -- A new line keeps the price it is added at; more of it added later keeps the line's (and its
  -- hidden_from).
  added AS (
    INSERT INTO cart_lines AS l (cart_id, product_id, added_by, quantity, added_price_cents,
      added_at, updated_at, hidden_from)
    SELECT k.cart, k.product, k.usr, k.quantity, k.price_cents, k.now, k.now, '{}'
    FROM checked k WHERE k.op = 'add' AND k.verdict = 'ok'
    ORDER BY k.n
    ON CONFLICT (cart_id, product_id, added_by)
    DO UPDATE SET quantity = l.quantity + excluded.quantity, updated_at = excluded.updated_at
    RETURNING l.id, l.cart_id, l.product_id, l.added_by, l.hidden_from
  ),
  gone AS (
    DELETE FROM cart_lines l USING checked k
    WHERE l.id = k.line_id AND k.op = 'remove' AND k.verdict = 'ok'
    RETURNING l AS line, k.usr AS removed_by, k.now AS removed_at
  ),
  -- Kept for the remover's undo (keep_removed_lines(), handed the deleted rows: it does not see
  -- this statement's DELETE). A CTE that only selects runs only where the statement reads it:
  -- the answer below joins its one row (an aggregate's, even with no removal).
  kept AS (
    SELECT keep_removed_lines(array_agg(g.line), array_agg(g.removed_by),
      array_agg(g.removed_at)) AS lines
    FROM gone g
  )
  SELECT k.n, k.cart, k.verdict,
    CASE WHEN k.verdict = 'stock' THEN k.stock END,
    CASE WHEN k.verdict = 'stock' THEN k.in_cart::integer END,
    k.role, k.order_number, k.closes_at, k.session_id, k.now, k.usr, k.actor_name,
    CASE k.op WHEN 'add' THEN 'item.added' ELSE 'item.removed' END,
    CASE k.op
      WHEN 'add' THEN jsonb_build_object('productId', k.product, 'product', k.product_name,
        'quantity', k.quantity)
      ELSE jsonb_build_object('productId', k.line_product, 'product', k.line_name,
        'quantity', k.line_quantity, 'lineOf', k.owner_name)
    END,
    coalesce(a.id, k.line_id), coalesce(a.hidden_from, k.hidden_from)
  FROM checked k
  CROSS JOIN kept
  LEFT JOIN added a ON k.op = 'add' AND a.cart_id = k.cart AND a.product_id = k.product
    AND a.added_by = k.usr
  ORDER BY k.n;
END
$$;
