-- cart_view(cart): the cart, its session (with its deadline and approvers), its members (role, budget and its
-- mode, child mark, ready mark and the share total it was set at) and its lines (frozen or current price, the price added at and last seen,
-- the product's availability and stock, who added it, shared with whom, hidden from whom, since
-- when it waits for approval) as
-- one JSON value (a staple line is carried into a series' next session). Every cart answer is built from it.
-- A free line has no product: its name is the line's, its price its estimate (unit_price_cents).
-- Applied with CREATE OR REPLACE after the migrations on every start (src/db/functions.ts): edit
-- the body here, no migration needed. A new signature needs a migration that drops the old one.
CREATE OR REPLACE FUNCTION cart_view(p_cart uuid) RETURNS json
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT json_build_object(
    'cart', json_build_object(
      'id', c.id, 'status', c.status, 'createdAt', c.created_at, 'updatedAt', c.updated_at),
    'session', json_build_object(
      'id', s.id, 'name', s.name, 'status', s.status, 'creatorId', s.creator_id,
      'version', s.version, 'splitPolicy', s.split_policy, 'approvers', s.approvers,
      'deadline', (
        SELECT json_build_object('closesAt', d.closes_at, 'remindAt', d.remind_at,
          'autoCheckout', d.auto_checkout, 'remindedOnSetAt', d.reminded_on_set_at)
        FROM session_deadlines d WHERE d.session_id = s.id)),
    'members', (
      SELECT coalesce(json_agg(json_build_object(
        'userId', m.user_id, 'name', u.name, 'role', m.role,
        'budgetCents', m.budget_cents, 'ready', m.ready, 'readyTotalCents', m.ready_total_cents,
        'budgetMode', m.budget_mode, 'child', m.child)
        ORDER BY m.created_at, m.user_id), '[]')
      FROM session_members m JOIN users u ON u.id = m.user_id
      WHERE m.session_id = s.id),
    'lines', (
      SELECT coalesce(json_agg(json_build_object(
        'id', l.id, 'quantity', l.quantity, 'addedAt', l.added_at,
        'unitPriceCents', coalesce(l.unit_price_cents, p.price_cents),
        -- The price members last saw: the acknowledged one, else the one it was added at.
        'addedPriceCents', coalesce(l.added_price_cents, l.unit_price_cents, p.price_cents),
        'seenPriceCents', coalesce(l.acknowledged_price_cents, l.added_price_cents,
          l.unit_price_cents, p.price_cents),
        -- A free line is always "on sale" and has no stock.
        'available', coalesce(p.available, true), 'stock', p.stock,
        'productId', p.id, 'productName', coalesce(p.name, l.name), 'slug', p.slug,
        'imageHash', p.image_hash, 'imageType', p.image_type, 'color', p.color,
        'userId', u.id, 'userName', u.name,
        'staple', l.staple, 'note', l.note, 'substitute', l.substitute,
        'pendingAt', l.pending_at,
        'hiddenFrom', l.hidden_from,
        -- Most lines are shared with no one: no subquery for them.
        'sharedWith', CASE WHEN cardinality(l.shared_with) > 0 THEN (
          SELECT coalesce(json_agg(json_build_object('_id', su.id, 'name', su.name)
            ORDER BY su.name, su.id), '[]')
          FROM users su WHERE su.id = ANY (l.shared_with)) ELSE '[]' END)
        ORDER BY l.added_at, l.id), '[]')
      FROM cart_lines l
      LEFT JOIN products p ON p.id = l.product_id
      JOIN users u ON u.id = l.added_by
      WHERE l.cart_id = c.id))
  FROM carts c JOIN sessions s ON s.id = c.session_id
  WHERE c.id = p_cart);
END
$$;
