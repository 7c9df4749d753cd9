-- cart_write_context(cart, user): what every change of `user` to `cart` is checked against, read
-- once for a batch's changes of that member to that cart (cart_write_batch()): locks the cart row
-- first, then reads its status and session, the member's role, name and budget, the session's
-- deadline, and the order's number for a cart no longer active (it words the refusal). Nothing in
-- it moves while the lock is held: every session write takes the cart's lock first
-- (lock_session()), deadline changes too, and no cart change alters any of it.
-- Applied with CREATE OR REPLACE after the migrations on every start (src/db/functions.ts): edit
-- the body here, no migration needed. A new signature needs a migration that drops the old one.
CREATE OR REPLACE FUNCTION cart_write_context(p_cart uuid, p_user uuid)
RETURNS cart_write_context LANGUAGE plpgsql AS $$
DECLARE
  v cart_write_context;
BEGIN
  -- Locking the cart row first makes changes to one cart apply one at a time (50 concurrent +1s
  -- give +50). Each later statement reads what committed before the lock was granted (a new
  -- snapshot per statement), so the role, the stock and the lines read after it are current.
  SELECT c.status, c.session_id INTO v.status, v.session_id
  FROM carts c
  WHERE c.id = p_cart
  FOR UPDATE;
  -- The actor's name (for the activity entry) and the session's deadline come with the role: one
  -- statement. Read after the cart's lock, which every deadline change takes first too.
  SELECT m.role, u.name, d.closes_at, d.locked_at,
         CASE WHEN v.status <> 'active' THEN (SELECT o.number FROM orders o WHERE o.session_id = v.session_id) END,
         m.budget_cents, m.budget_mode
  INTO v.role, v.actor_name, v.closes_at, v.locked_at, v.order_number, v.budget_cents,
    v.budget_mode
  FROM users u
  LEFT JOIN session_members m ON m.session_id = v.session_id AND m.user_id = u.id
  LEFT JOIN session_deadlines d ON d.session_id = v.session_id
  WHERE u.id = p_user;
  RETURN v;
END
$$;
