-- keep_removed_lines(lines, by, at): keeps removed cart lines in removed_lines for the remover's
-- undo ('restore' in cart_write_core() puts one back exactly: id, adder, quantity, sharers,
-- staple mark, added time), each as it was just before its removal; `by` and `at` are parallel
-- to `lines`: who removed each and when. A line kept again replaces its earlier copy;
-- cart_write_settle() drops copies older than the undo's window. The one place that copies a
-- line's columns for the undo: a column added to cart_lines and removed_lines is added here.
-- The callers hand in the deleted rows' values (DELETE ... RETURNING), not their ids: a function
-- called in the statement that deleted them (cart_write_set()) does not see that statement's
-- changes. One INSERT for all the lines, its plan cached by plpgsql for the session (a SQL
-- function's body is planned again for every statement that calls it). STRICT: no lines (an
-- array_agg() of none is NULL), no call at all.
-- Applied with CREATE OR REPLACE after the migrations on every start (src/db/functions.ts): edit
-- the body here, no migration needed. A new signature needs a migration that drops the old one.
CREATE OR REPLACE FUNCTION keep_removed_lines(p_lines cart_lines[], p_by uuid[],
  p_at timestamptz[])
RETURNS integer LANGUAGE plpgsql STRICT AS $$
DECLARE
  v_kept integer;
BEGIN
  IF cardinality(p_by) <> cardinality(p_lines) OR cardinality(p_at) <> cardinality(p_lines) THEN
    RAISE EXCEPTION 'keep_removed_lines: % lines, % removers, % times', cardinality(p_lines),
      cardinality(p_by), cardinality(p_at);
  END IF;
  -- A free line keeps its estimate; a product line's price is its product's when it comes back.
  INSERT INTO removed_lines (line_id, cart_id, product_id, added_by, quantity,
    added_price_cents, acknowledged_price_cents, shared_with, staple, added_at, removed_by,
    removed_at, name, unit_price_cents, note, substitute, pending_at, hidden_from)
  SELECT l.id, l.cart_id, l.product_id, l.added_by, l.quantity, l.added_price_cents,
    l.acknowledged_price_cents, l.shared_with, l.staple, l.added_at, l.removed_by,
    l.removed_at, l.name, CASE WHEN l.product_id IS NULL THEN l.unit_price_cents END, l.note,
    l.substitute, l.pending_at, l.hidden_from
  FROM unnest(p_by, p_at, p_lines) AS l(removed_by, removed_at)
  ON CONFLICT (line_id) DO UPDATE SET quantity = excluded.quantity,
    added_price_cents = excluded.added_price_cents,
    acknowledged_price_cents = excluded.acknowledged_price_cents,
    shared_with = excluded.shared_with, staple = excluded.staple,
    hidden_from = excluded.hidden_from,
    name = excluded.name, unit_price_cents = excluded.unit_price_cents,
    note = excluded.note, substitute = excluded.substitute,
    pending_at = excluded.pending_at, removed_by = excluded.removed_by,
    removed_at = excluded.removed_at;
  GET DIAGNOSTICS v_kept = ROW_COUNT;
  RETURN v_kept;
END
$$;
