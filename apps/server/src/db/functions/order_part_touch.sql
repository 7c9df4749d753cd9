-- order_part_touch(): the trigger function that gives an order a new version when a row that its
-- view shows changes: a share (its figures, its mail status), a payer, an entry of its book. The
-- update of the order's row is what moves it (order_touch), in the writer's transaction, and what
-- marks the people on it (order_people_mark()). A share or payer inserted, deleted or given to
-- someone else also marks the person it adds or takes off (order_mark()): one taken off is no
-- longer on the order, one added may join after the order was marked in the transaction. The
-- triggers are made with it on every start (TRIGGERS in src/db/functions.ts).
-- Applied with CREATE OR REPLACE after the migrations on every start (src/db/functions.ts): edit
-- the body here, no migration needed. A new signature needs a migration that drops the old one.
CREATE OR REPLACE FUNCTION order_part_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME <> 'ledger_entries' THEN
    IF TG_OP = 'INSERT' THEN
      PERFORM order_mark(ARRAY[NEW.user_id]);
    ELSIF TG_OP = 'DELETE' THEN
      PERFORM order_mark(ARRAY[OLD.user_id]);
    ELSIF NEW.user_id IS DISTINCT FROM OLD.user_id THEN
      PERFORM order_mark(ARRAY[OLD.user_id, NEW.user_id]);
    END IF;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    UPDATE orders SET version = nextval('order_versions') WHERE id = OLD.order_id;
  END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.order_id IS DISTINCT FROM OLD.order_id) THEN
    UPDATE orders SET version = nextval('order_versions') WHERE id = NEW.order_id;
  END IF;
  RETURN NULL;
END
$$;
