-- cart_write_settle(carts, entries): the bookkeeping of cart changes that landed, once for a
-- whole batch (cart_write_batch()) or for one change (cart_write()), in the changes' transaction:
-- each cart's updated_at and its session's version (moved by one per change, so a reader's
-- version compares as before), the activity entries cart_write_core() answered, in order (every
-- committed change has one), and the cart's removals older than the undo's hour. `carts` and
-- `entries` are parallel: the cart of each entry.
-- Applied with CREATE OR REPLACE after the migrations on every start (src/db/functions.ts): edit
-- the body here, no migration needed. A new signature needs a migration that drops the old one.
CREATE OR REPLACE FUNCTION cart_write_settle(p_carts uuid[], p_entries activity[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(p_entries) IS DISTINCT FROM cardinality(p_carts) THEN
    RAISE EXCEPTION 'cart_write_settle: % carts for % entries', cardinality(p_carts),
      cardinality(p_entries);
  ELSIF cardinality(p_entries) = 0 THEN
    RETURN;
  END IF;
  UPDATE carts c SET updated_at = x.at
  FROM (SELECT t.cart, max(t.at) AS at FROM unnest(p_carts, p_entries) AS t(cart)
    GROUP BY t.cart) x
  WHERE c.id = x.cart;
  UPDATE sessions s SET version = s.version + x.n, updated_at = x.at
  FROM (SELECT e.session_id, count(*) AS n, max(e.at) AS at FROM unnest(p_entries) e
    GROUP BY e.session_id) x
  WHERE s.id = x.session_id;
  INSERT INTO activity (session_id, at, actor_id, actor_name, type, details, line_id, hidden_from)
  SELECT e.session_id, e.at, e.actor_id, e.actor_name, e.type, e.details, e.line_id, e.hidden_from
  FROM unnest(p_entries) WITH ORDINALITY AS e
  ORDER BY e.ordinality;
  DELETE FROM removed_lines r
  WHERE r.cart_id = ANY (p_carts) AND r.removed_at < (SELECT min(e.at) FROM unnest(p_entries) e)
    - interval '1 hour';
END
$$;
