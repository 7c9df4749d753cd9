-- member_share_over(cart, user, budget_cents): whether the member's share of the cart, as it stands
-- in this transaction, is over `budget_cents`: the "ask first" budget's check, which
-- cart_write_core() asks after an add or a +1 by a member whose budget asks first (a line the
-- answer is true for waits for approval). The share is the contract's split's exact share (before
-- its rounding to the cent, split.ts): the lines counted (on sale, not waiting for approval), each
-- carried by its sharers in equal parts, else by the session's policy (the adder; every paying
-- member equally; paying members by weight, the adder when every weight is 0); fees and tax
-- (pricing_rates(), made from the contract's constants) in proportion to the subtotal. A policy
-- whose fees are shared equally or put on the creator is checked with proportional fees: within a
-- few cents of its share, and never over by the lines alone.
-- Applied with CREATE OR REPLACE after the migrations on every start (src/db/functions.ts): edit
-- the body here, no migration needed. A new signature needs a migration that drops the old one.
CREATE OR REPLACE FUNCTION member_share_over(p_cart uuid, p_user uuid, p_budget integer)
RETURNS boolean LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (WITH policy AS (
    SELECT s.id AS session_id, coalesce(s.split_policy->>'mode', 'by_adder') AS mode,
           coalesce(s.split_policy->'weights', '{}'::jsonb) AS weights
    FROM carts c JOIN sessions s ON s.id = c.session_id WHERE c.id = p_cart
  ), payers AS (
    SELECT m.user_id,
           CASE WHEN policy.mode = 'equal' THEN 1
                ELSE coalesce((policy.weights->>m.user_id::text)::numeric, 100) END AS weight
    FROM session_members m JOIN policy ON m.session_id = policy.session_id
    WHERE m.role IN ('creator', 'participant')
  ), pool AS (
    SELECT coalesce(sum(weight), 0) AS total,
           coalesce(sum(weight) FILTER (WHERE user_id = p_user), 0) AS mine
    FROM payers
  ), lines AS (
    SELECT l.quantity * coalesce(l.unit_price_cents, p.price_cents)::numeric AS cents, l.added_by,
           (SELECT count(*) FROM payers WHERE payers.user_id = ANY (l.shared_with)) AS sharers,
           EXISTS (SELECT 1 FROM payers WHERE payers.user_id = p_user
             AND p_user = ANY (l.shared_with)) AS shared_by_me
    FROM cart_lines l LEFT JOIN products p ON p.id = l.product_id
    WHERE l.cart_id = p_cart AND l.pending_at IS NULL AND coalesce(p.available, true)
  ), sums AS (
    SELECT coalesce(sum(l.cents), 0) AS subtotal,
           coalesce(sum(CASE
             WHEN l.sharers > 0 THEN CASE WHEN l.shared_by_me THEN l.cents / l.sharers ELSE 0 END
             WHEN policy.mode IN ('equal', 'weights') AND pool.total > 0
               THEN l.cents * pool.mine / pool.total
             WHEN l.added_by = p_user THEN l.cents
             ELSE 0 END), 0) AS mine
    FROM lines l CROSS JOIN policy CROSS JOIN pool
  ), figures AS (
    SELECT sums.subtotal, sums.mine,
           floor((sums.subtotal * r.fee_percent + 50) / 100) AS fees, r.tax_percent
    FROM sums CROSS JOIN pricing_rates() r
  )
  SELECT CASE WHEN f.subtotal = 0 THEN false
    ELSE f.mine * (f.subtotal + f.fees + floor(((f.subtotal + f.fees) * f.tax_percent + 50) / 100))
      > p_budget::numeric * f.subtotal END
  FROM figures f);
END
$$;
