-- session_gate(action, role, status, order_number, closes_at, locked_at, now, open): the one answer to
-- "may this person do this to this session now". From the permissions table (permission_rule(),
-- made from the contract's table on every start) and the session as the caller read it under its
-- lock: 'ok', or the first refusal of 'not_member' (no role, or pending where the action does not
-- allow pending), 'role' (the table does not allow the role, nor its `opened` roles where the
-- session has the rule's setting open: `open`, e.g. {checkoutBy}), 'ended' or 'checked_out' (the
-- session, or its cart, is no longer active; 'checked_out' when it became order `order_number`),
-- 'locked' (an action that needs an open cart, past the deadline `closes_at` by the write's own
-- time, or after the deadline's lock was recorded). A null action checks only the session's state:
-- a write whose caller need not be a member (joining, an order's settlement).
-- Applied with CREATE OR REPLACE after the migrations on every start (src/db/functions.ts): edit
-- the body here, no migration needed. A new signature needs a migration that drops the old one.
CREATE OR REPLACE FUNCTION session_gate(
  p_action text, p_role text, p_status text, p_order_number integer, p_closes_at timestamptz,
  p_locked_at timestamptz, p_now timestamptz, p_open text[] DEFAULT '{}'
) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  v_rule jsonb;
  v_roles text[];
  v_needs text;
  v_opened_by text;
  v_opened_roles text[];
BEGIN
  IF p_action IS NOT NULL THEN
    -- Simple expressions only (no query): the gate runs once or twice in every cart write.
    v_rule := permission_rule(p_action);
    v_roles := (v_rule->>'roles')::text[];
    v_needs := v_rule->>'needs';
    v_opened_by := v_rule->>'openedBy';
    v_opened_roles := (v_rule->>'openedRoles')::text[];
    IF v_opened_by = ANY (p_open) THEN
      v_roles := v_roles || v_opened_roles;
    END IF;
    IF v_roles IS NULL THEN
      RAISE EXCEPTION 'session_gate: no rule for action %', p_action;
    ELSIF p_role IS NULL OR (p_role = 'pending' AND NOT 'pending' = ANY (v_roles)) THEN
      RETURN 'not_member';
    ELSIF NOT p_role = ANY (v_roles) THEN
      RETURN 'role';
    END IF;
  END IF;
  IF p_status IS DISTINCT FROM 'active' THEN
    RETURN CASE WHEN p_order_number IS NULL THEN 'ended' ELSE 'checked_out' END;
  ELSIF v_needs = 'open cart' AND (p_now >= p_closes_at OR p_locked_at IS NOT NULL) THEN
    RETURN 'locked';
  END IF;
  RETURN 'ok';
END
$$;
