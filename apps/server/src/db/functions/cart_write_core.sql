-- cart_write_core(op, cart, user, product, line, quantity, change, restore_seconds, max, now):
-- one cart change (add, step +1/-1, remove a line, restore a removed line, clear). Who may make
-- it, and when, is session_gate()'s answer for the operation's action (member, role, active
-- cart, not past the session's deadline: `now` against its closes_at, read under the cart's
-- lock, so a write lands before the deadline or is refused; nor after the lock's entry, so none
-- follows it in the log);
-- then the line's own rules: stock across the cart's lines, at most `max` per line, another's
-- line only where the table allows cart.changeAnyLine, and no step or restore of a line whose
-- adder is no longer a member (such a line can only be removed). Locks the cart row first;
-- answers a verdict ('ok', 'pending', 'unchanged' or a refusal) with the caller's role, the
-- order's number and the deadline that word a refusal, and, when refused for stock, the stock
-- and what the cart already holds. A change that lands ('ok' or 'pending') answers its activity
-- entry too, unwritten: the caller hands it to cart_write_settle() in the same transaction, which
-- writes a batch's entries, the carts' updated_at and the sessions' versions once per batch.
-- Applied with CREATE OR REPLACE after the migrations on every start (src/db/functions.ts): edit
-- the body here, no migration needed. A new signature needs a migration that drops the old one.
-- A removed line is kept in removed_lines (keep_removed_lines()) so that 'restore' can put it
-- back exactly (id, adder, quantity, sharers, staple mark, added time) for the member who
-- removed it, within the window the server passes in p_restore_seconds: re-adding the product
-- instead would make the undoer its adder, and so its payer under the "by adder" split.
-- p_context: the cart's lock and what a change is checked against, as cart_write_context() read
-- it (a batch reads it once per cart and member, cart_write_batch()); NULL: read here.
-- Each number has its own argument, named as the route names it: p_quantity (how many 'add' puts
-- in), p_change (a step: +1 or -1), p_restore_seconds (restore's window); the others are NULL.
-- A free line (no product, a name instead; added by the carts service through lock_session) is
-- stepped, removed and restored here like any line, named by p_line alone (its product is NULL,
-- so p_product is not compared), with no stock to check.
-- "Ask first": an add or a +1 by a member (not the creator) whose budget asks first, that leaves
-- their share over it (member_share_over()), makes the line wait for approval (pending_at; a
-- waiting line stays waiting as it grows) and answers 'pending' instead of 'ok': the line is
-- kept out of the totals and the split until the creator or an approver approves it.
-- Private from the start: an 'add' with p_hidden (members, decision 049) writes a new line hidden
-- from them, so its entry (and so its notices) is hidden from them from the first moment. The
-- members are checked under the cart's lock, as the hidden-from route checks them (hidingRefusal()
-- in carts/line-hiding.ts words the verdicts): 'hide_self', 'hide_creator' (anyone who sees every
-- private line), 'hide_stranger' (not a member). A member has one line of a product, and more of
-- it joins that line, which keeps its own hidden_from: it may, only when that line is hidden from
-- every member asked ('hidden_apart' otherwise: the merge would show the new units to someone or
-- hide the earlier ones from someone who saw them). p_hidden NULL or empty: the add as before.
CREATE OR REPLACE FUNCTION cart_write_core(
  p_op text, p_cart uuid, p_user uuid, p_product uuid, p_line uuid, p_quantity integer,
  p_change integer, p_restore_seconds integer, p_max integer, p_now timestamptz,
  p_hidden uuid[] DEFAULT NULL, p_context cart_write_context DEFAULT NULL,
  OUT verdict text, OUT product_stock integer, OUT already_in_cart integer, OUT role text,
  OUT order_number integer, OUT closes_at timestamptz, OUT entry activity
) LANGUAGE plpgsql AS $$
DECLARE
  v_ctx cart_write_context;
  v_stock integer;
  v_in_cart integer;
  v_own integer;
  v_line uuid;
  v_line_owner uuid;
  v_line_quantity integer;
  v_line_product uuid;
  v_product_name text;
  v_price integer;
  v_owner_name text;
  v_type text;
  v_details jsonb;
  v_removed removed_lines%ROWTYPE;
  v_gone cart_lines%ROWTYPE;
  v_pending boolean := false;
  -- The line's private mark, which its activity entry carries (members it is hidden from).
  v_hidden uuid[] := '{}';
BEGIN
  -- The cart's lock and what the change is checked against: a batch hands it in, read once for
  -- the member's changes to the cart (cart_write_context()).
  IF p_context IS NULL THEN
    v_ctx := cart_write_context(p_cart, p_user);
  ELSE
    v_ctx := p_context;
  END IF;
  role := v_ctx.role;
  closes_at := v_ctx.closes_at;
  order_number := v_ctx.order_number;

  verdict := session_gate(
    CASE p_op WHEN 'add' THEN 'cart.add' WHEN 'clear' THEN 'cart.clear' ELSE 'cart.changeOwnLine' END,
    role, v_ctx.status, order_number, closes_at, v_ctx.locked_at, p_now);
  IF verdict <> 'ok' THEN
    RETURN;
  END IF;

  IF p_op = 'add' THEN
    IF p_quantity IS NULL OR p_quantity < 1 THEN
      RAISE EXCEPTION 'cart_write: add needs a positive quantity, not %', p_quantity;
    END IF;
    IF cardinality(p_hidden) > 0 THEN
      IF p_user = ANY(p_hidden) THEN
        verdict := 'hide_self'; RETURN;
      ELSIF EXISTS (SELECT 1 FROM session_members m, permission_of('cart.seePrivate') r
          WHERE m.session_id = v_ctx.session_id AND m.user_id = ANY(p_hidden)
          AND m.role = ANY(r.roles)) THEN
        verdict := 'hide_creator'; RETURN;
      ELSIF (SELECT count(DISTINCT m.user_id) FROM session_members m
          WHERE m.session_id = v_ctx.session_id AND m.user_id = ANY(p_hidden) AND m.role <> 'pending')
          < (SELECT count(DISTINCT h) FROM unnest(p_hidden) h) THEN
        verdict := 'hide_stranger'; RETURN;
      END IF;
    END IF;
    SELECT p.stock, p.name, p.price_cents, coalesce(sum(l.quantity), 0),
           coalesce(sum(l.quantity) FILTER (WHERE l.added_by = p_user), 0)
    INTO v_stock, v_product_name, v_price, v_in_cart, v_own
    FROM products p
    LEFT JOIN cart_lines l ON l.product_id = p.id AND l.cart_id = p_cart
    WHERE p.id = p_product
    GROUP BY p.id;
    IF v_stock IS NULL THEN
      verdict := 'no_product'; RETURN;
    ELSIF v_in_cart + p_quantity > v_stock THEN
      verdict := 'stock'; product_stock := v_stock; already_in_cart := v_in_cart; RETURN;
    ELSIF v_own + p_quantity > p_max THEN
      verdict := 'line_full'; RETURN;
    ELSIF cardinality(p_hidden) > 0 AND EXISTS (SELECT 1 FROM cart_lines l
        WHERE l.cart_id = p_cart AND l.product_id = p_product AND l.added_by = p_user
          AND NOT l.hidden_from @> p_hidden) THEN
      verdict := 'hidden_apart'; RETURN;
    END IF;
    -- A new line keeps the price it is added at; more of it added later keeps the line's (and
    -- its hidden_from, above).
    INSERT INTO cart_lines AS l (cart_id, product_id, added_by, quantity, added_price_cents,
      added_at, updated_at, hidden_from)
    VALUES (p_cart, p_product, p_user, p_quantity, v_price, p_now, p_now,
      coalesce(p_hidden, '{}'))
    ON CONFLICT (cart_id, product_id, added_by)
    DO UPDATE SET quantity = l.quantity + p_quantity, updated_at = p_now
    RETURNING l.id, l.pending_at IS NOT NULL, l.hidden_from INTO v_line, v_pending, v_hidden;
    v_type := 'item.added';
    v_details := jsonb_build_object('productId', p_product, 'product', v_product_name,
      'quantity', p_quantity);

  ELSIF p_op IN ('step', 'remove') THEN
    -- The line with its names (its product's or its own, its adder's) and private mark, for the
    -- entry: one statement.
    SELECT l.id, l.added_by, l.quantity, l.product_id, l.pending_at IS NOT NULL,
      coalesce(p.name, l.name), u.name, l.hidden_from
    INTO v_line, v_line_owner, v_line_quantity, v_line_product, v_pending, v_product_name,
      v_owner_name, v_hidden
    FROM cart_lines l JOIN users u ON u.id = l.added_by LEFT JOIN products p ON p.id = l.product_id
    WHERE l.cart_id = p_cart
      AND ((l.id = p_line AND (l.product_id = p_product OR l.product_id IS NULL))
        OR (p_line IS NULL AND l.product_id = p_product AND l.added_by = p_user));
    IF v_line IS NULL THEN
      verdict := 'no_line'; RETURN;
    ELSIF v_line_owner <> p_user AND session_gate('cart.changeAnyLine', role, v_ctx.status,
        order_number, closes_at, v_ctx.locked_at, p_now) <> 'ok' THEN
      verdict := 'not_own'; RETURN;
    ELSIF p_op = 'step' AND v_line_owner <> p_user AND NOT EXISTS (
      SELECT 1 FROM session_members m WHERE m.session_id = v_ctx.session_id
        AND m.user_id = v_line_owner AND m.role <> 'pending') THEN
      verdict := 'adder_left'; RETURN;
    END IF;
    IF p_op = 'remove' THEN
      -- Kept for the remover's undo ('restore' below): keep_removed_lines().
      DELETE FROM cart_lines l WHERE l.id = v_line RETURNING l.* INTO v_gone;
      IF FOUND THEN
        PERFORM keep_removed_lines(ARRAY[v_gone], ARRAY[p_user], ARRAY[p_now]);
      END IF;
      v_type := 'item.removed';
      v_details := jsonb_build_object('productId', v_line_product, 'product', v_product_name,
        'quantity', v_line_quantity, 'lineOf', v_owner_name);
    ELSIF p_change = 1 THEN
      IF v_line_quantity >= p_max THEN
        verdict := 'line_full'; RETURN;
      END IF;
      SELECT p.stock, coalesce(sum(l.quantity), 0) INTO v_stock, v_in_cart
      FROM products p
      LEFT JOIN cart_lines l ON l.product_id = p.id AND l.cart_id = p_cart
      WHERE p.id = v_line_product
      GROUP BY p.id;
      IF v_in_cart + 1 > v_stock THEN
        verdict := 'stock'; product_stock := v_stock; already_in_cart := v_in_cart; RETURN;
      END IF;
      UPDATE cart_lines SET quantity = quantity + 1, updated_at = p_now WHERE id = v_line;
      v_type := 'item.quantity';
      v_details := jsonb_build_object('productId', v_line_product, 'product', v_product_name,
        'quantity', v_line_quantity + 1, 'change', 1, 'lineOf', v_owner_name);
    ELSIF p_change = -1 THEN
      IF v_line_quantity <= 1 THEN
        -- Minus at 1 does nothing (a quantity never drops below 1): no write, no new version.
        verdict := 'unchanged'; RETURN;
      END IF;
      UPDATE cart_lines SET quantity = quantity - 1, updated_at = p_now WHERE id = v_line;
      v_type := 'item.quantity';
      v_details := jsonb_build_object('productId', v_line_product, 'product', v_product_name,
        'quantity', v_line_quantity - 1, 'change', -1, 'lineOf', v_owner_name);
    ELSE
      RAISE EXCEPTION 'cart_write: a step is +1 or -1, not %', p_change;
    END IF;

  ELSIF p_op = 'restore' THEN
    -- Undo of a removal: only by the member who removed the line, within p_restore_seconds; the
    -- line comes back as it was (id, adder, quantity, sharers, added time), so who pays for it
    -- is unchanged. Refused when its adder has that product on a line again, or stock is short.
    SELECT * INTO v_removed FROM removed_lines r
    WHERE r.line_id = p_line AND r.cart_id = p_cart AND r.removed_by = p_user
      AND r.removed_at >= p_now - make_interval(secs => p_restore_seconds);
    IF v_removed.line_id IS NULL THEN
      verdict := 'no_removal'; RETURN;
    ELSIF v_removed.added_by <> p_user AND session_gate('cart.changeAnyLine', role, v_ctx.status,
        order_number, closes_at, v_ctx.locked_at, p_now) <> 'ok' THEN
      verdict := 'not_own'; RETURN;
    ELSIF v_removed.added_by <> p_user AND NOT EXISTS (
      SELECT 1 FROM session_members m WHERE m.session_id = v_ctx.session_id
        AND m.user_id = v_removed.added_by AND m.role <> 'pending') THEN
      verdict := 'adder_left'; RETURN;
    END IF;
    SELECT p.stock, p.name, coalesce(sum(l.quantity), 0),
           count(l.id) FILTER (WHERE l.added_by = v_removed.added_by)
    INTO v_stock, v_product_name, v_in_cart, v_own
    FROM products p
    LEFT JOIN cart_lines l ON l.product_id = p.id AND l.cart_id = p_cart
    WHERE p.id = v_removed.product_id
    GROUP BY p.id;
    -- A free line has no product: no stock, and no other line it could be again.
    v_product_name := coalesce(v_product_name, v_removed.name);
    IF v_own > 0 THEN
      verdict := 'line_exists'; RETURN;
    ELSIF v_in_cart + v_removed.quantity > v_stock THEN
      verdict := 'stock'; product_stock := v_stock; already_in_cart := v_in_cart; RETURN;
    END IF;
    INSERT INTO cart_lines (id, cart_id, product_id, added_by, quantity, added_price_cents,
      acknowledged_price_cents, shared_with, staple, added_at, updated_at, name,
      unit_price_cents, note, substitute, pending_at, hidden_from)
    VALUES (v_removed.line_id, p_cart, v_removed.product_id, v_removed.added_by,
      v_removed.quantity, v_removed.added_price_cents, v_removed.acknowledged_price_cents,
      v_removed.shared_with, v_removed.staple, v_removed.added_at, p_now, v_removed.name,
      v_removed.unit_price_cents, v_removed.note, v_removed.substitute, v_removed.pending_at,
      v_removed.hidden_from);
    v_line := v_removed.line_id;
    v_hidden := v_removed.hidden_from;
    DELETE FROM removed_lines WHERE line_id = v_removed.line_id;
    SELECT u.name INTO v_owner_name FROM users u WHERE u.id = v_removed.added_by;
    v_type := 'item.restored';
    v_details := jsonb_build_object('productId', v_removed.product_id, 'product', v_product_name,
      'quantity', v_removed.quantity, 'lineOf', v_owner_name);

  ELSIF p_op = 'clear' THEN
    -- The counts are everyone's; a private line's are kept apart (`hidden`: whom it was hidden
    -- from, its units) so the log's read takes them out for those members (activityAnswer()).
    WITH gone AS (DELETE FROM cart_lines WHERE cart_id = p_cart RETURNING quantity, hidden_from)
    SELECT jsonb_build_object('lines', count(*), 'items', coalesce(sum(quantity), 0))
      || CASE WHEN bool_or(cardinality(hidden_from) > 0) THEN jsonb_build_object('hidden',
        jsonb_agg(jsonb_build_object('from', hidden_from, 'units', quantity))
          FILTER (WHERE cardinality(hidden_from) > 0)) ELSE '{}'::jsonb END
    INTO v_details FROM gone;
    v_type := 'cart.cleared';

  ELSE
    RAISE EXCEPTION 'cart_write: unknown op %', p_op;
  END IF;

  -- "Ask first": more on a line of the member's own, past their budget, waits for approval.
  IF (p_op = 'add' OR (p_op = 'step' AND p_change = 1 AND v_line_owner = p_user))
      AND v_ctx.budget_mode = 'ask' AND v_ctx.budget_cents IS NOT NULL AND role <> 'creator'
      AND (v_pending OR member_share_over(p_cart, p_user, v_ctx.budget_cents)) THEN
    UPDATE cart_lines SET pending_at = coalesce(pending_at, p_now) WHERE id = v_line;
    v_pending := true;
  ELSE
    v_pending := false;
  END IF;

  -- The activity log's entry, which the caller writes (cart_write_settle()) in this same
  -- transaction: every committed change has one. An entry about a private line is hidden from the
  -- same members as the line.
  entry.session_id := v_ctx.session_id;
  entry.at := p_now;
  entry.actor_id := p_user;
  entry.actor_name := v_ctx.actor_name;
  entry.type := v_type;
  entry.details := CASE WHEN v_pending THEN v_details || jsonb_build_object('pending', true)
    ELSE v_details END;
  entry.line_id := v_line;
  entry.hidden_from := v_hidden;
  verdict := CASE WHEN v_pending THEN 'pending' ELSE 'ok' END;
END
$$;
