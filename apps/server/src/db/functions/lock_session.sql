-- lock_session(session, user, action, now): the start of every session write outside the cart's
-- line writes. Locks the session's cart row, then its session row (the order cart_write() and
-- checkout take them in, so writes never deadlock), reads the caller's role, the deadline and the
-- order as they are now, and the settings that open an action to more roles (checkout_by
-- 'members' opens checkoutBy; the caller among the session's approvers opens approver), and asks session_gate() whether the caller may do `action` now.
-- Answers the gate's verdict with what wording a refusal needs; no cart: the session is unknown.
-- Applied with CREATE OR REPLACE after the migrations on every start (src/db/functions.ts): edit
-- the body here, no migration needed. A new signature needs a migration that drops the old one.
CREATE OR REPLACE FUNCTION lock_session(
  p_session uuid, p_user uuid, p_action text, p_now timestamptz,
  OUT verdict text, OUT role text, OUT cart_id uuid, OUT order_number integer,
  OUT closes_at timestamptz
) LANGUAGE plpgsql AS $$
DECLARE
  v_status text;
  v_locked_at timestamptz;
  v_open text[];
BEGIN
  SELECT c.id INTO cart_id FROM carts c WHERE c.session_id = p_session FOR UPDATE;
  SELECT s.status, CASE WHEN s.checkout_by = 'members' THEN ARRAY['checkoutBy'] ELSE '{}'::text[] END
    || CASE WHEN p_user = ANY (s.approvers) THEN ARRAY['approver'] ELSE '{}'::text[] END
  INTO v_status, v_open FROM sessions s WHERE s.id = p_session FOR UPDATE;
  SELECT m.role, d.closes_at, d.locked_at,
         CASE WHEN v_status <> 'active' THEN (SELECT o.number FROM orders o WHERE o.session_id = p_session) END
  INTO role, closes_at, v_locked_at, order_number
  FROM (SELECT 1) one
  LEFT JOIN session_members m ON m.session_id = p_session AND m.user_id = p_user
  LEFT JOIN session_deadlines d ON d.session_id = p_session;
  verdict := session_gate(p_action, role, v_status, order_number, closes_at, v_locked_at, p_now,
    v_open);
END
$$;
