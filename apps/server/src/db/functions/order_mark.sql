-- order_mark(people): marks these people once per transaction (decision 061): balances, the settle
-- plan and the CSV of all orders are kept while the sum of their people's marks' weights reads the
-- same. A writer only inserts: it deletes the person's older marks that it can lock without
-- waiting (SKIP LOCKED: one a concurrent writer is folding stays, to be folded later) and inserts
-- one mark weighing them all and one more. The sum therefore grows by exactly one per committed
-- transaction that marks the person, whatever order the transactions commit in, and never
-- shrinks; a person keeps about one row. No writer ever waits on a mark, so marks add no lock
-- order to the writers of orders. The people marked so far in the transaction are in a setting
-- local to it (undone with it, or with a savepoint rolled back), so a person is marked once.
-- Applied with CREATE OR REPLACE after the migrations on every start (src/db/functions.ts): edit
-- the body here, no migration needed. A new signature needs a migration that drops the old one.
CREATE OR REPLACE FUNCTION order_mark(p_people uuid[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_seen text := coalesce(current_setting('cartner.marked_people', true), '');
  v_new uuid[];
BEGIN
  SELECT array_agg(DISTINCT p) INTO v_new FROM unnest(p_people) AS p
    WHERE p IS NOT NULL AND position(p::text IN v_seen) = 0;
  IF v_new IS NULL THEN
    RETURN;
  END IF;
  PERFORM set_config('cartner.marked_people', v_seen || array_to_string(v_new, ',') || ',', true);
  WITH gone AS (
    DELETE FROM order_marks m
    WHERE (m.person_id, m.id) IN (
      SELECT k.person_id, k.id FROM order_marks k WHERE k.person_id = ANY (v_new)
      FOR UPDATE SKIP LOCKED)
    RETURNING m.person_id, m.weight)
  INSERT INTO order_marks (person_id, weight)
  SELECT p, 1 + coalesce((SELECT sum(g.weight) FROM gone g WHERE g.person_id = p), 0)
  FROM unnest(v_new) AS p;
END
$$;
