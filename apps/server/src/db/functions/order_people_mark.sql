-- order_people_mark(): the trigger function that marks everyone on an order (its payee, shares and
-- payers: order_mark()) the first time the order is written in a transaction: its insert, or an
-- update, which every write to what the order shows makes (order_touch, order_part_touch,
-- order_member_touch). Later writes of the same order in the transaction mark no one again: the
-- marks commit with all of them, and whoever joins the order later in it is marked by the share's
-- or payer's own trigger (order_part_touch). A payee changed or an order deleted marks the payee
-- it had. The orders marked so far are in a setting local to the transaction. The trigger is made
-- with it on every start (TRIGGERS in src/db/functions.ts).
-- Applied with CREATE OR REPLACE after the migrations on every start (src/db/functions.ts): edit
-- the body here, no migration needed. A new signature needs a migration that drops the old one.
CREATE OR REPLACE FUNCTION order_people_mark() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_seen text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM order_mark(ARRAY[OLD.payee_id]);
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.payee_id IS DISTINCT FROM NEW.payee_id THEN
    PERFORM order_mark(ARRAY[OLD.payee_id, NEW.payee_id]);
  END IF;
  v_seen := coalesce(current_setting('cartner.marked_orders', true), '');
  IF position(NEW.id::text IN v_seen) > 0 THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('cartner.marked_orders', v_seen || NEW.id::text || ',', true);
  PERFORM order_mark(ARRAY(
    SELECT NEW.payee_id
    UNION SELECT s.user_id FROM order_shares s WHERE s.order_id = NEW.id
    UNION SELECT p.user_id FROM order_payers p WHERE p.order_id = NEW.id));
  RETURN NULL;
END
$$;
