-- cart_view(cart): the cart, its session (with its deadline), its members (role, budget, ready mark and the share
-- total it was set at) and its lines (frozen or current price, who added it, shared with whom) as
-- one JSON value (a staple line is carried into a series' next session). Every cart answer is built from it.
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
      'version', s.version, 'splitPolicy', s.split_policy,
      'deadline', (
        SELECT json_build_object('closesAt', d.closes_at, 'remindAt', d.remind_at,
          'autoCheckout', d.auto_checkout, 'remindedOnSetAt', d.reminded_on_set_at)
        FROM session_deadlines d WHERE d.session_id = s.id)),
    'members', (
      SELECT coalesce(json_agg(json_build_object(
        'userId', m.user_id, 'name', u.name, 'role', m.role,
        'budgetCents', m.budget_cents, 'ready', m.ready, 'readyTotalCents', m.ready_total_cents)
        ORDER BY m.created_at, m.user_id), '[]')
      FROM session_members m JOIN users u ON u.id = m.user_id
      WHERE m.session_id = s.id),
    'lines', (
      SELECT coalesce(json_agg(json_build_object(
        'id', l.id, 'quantity', l.quantity, 'addedAt', l.added_at,
        'unitPriceCents', coalesce(l.unit_price_cents, p.price_cents),
        'productId', p.id, 'productName', p.name, 'slug', p.slug, 'imageHash', p.image_hash,
        'color', p.color, 'userId', u.id, 'userName', u.name, 'staple', l.staple,
        'sharedWith', (
          SELECT coalesce(json_agg(json_build_object('_id', su.id, 'name', su.name)
            ORDER BY su.name, su.id), '[]')
          FROM users su WHERE su.id = ANY (l.shared_with))) ORDER BY l.added_at, l.id), '[]')
      FROM cart_lines l
      JOIN products p ON p.id = l.product_id
      JOIN users u ON u.id = l.added_by
      WHERE l.cart_id = c.id))
  FROM carts c JOIN sessions s ON s.id = c.session_id
  WHERE c.id = p_cart);
END
$$;
