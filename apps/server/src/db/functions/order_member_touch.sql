-- order_member_touch(): the trigger function that gives a new version to every order a person has
-- a share in when their account is deleted: the order's view says so on their share
-- (accountDeleted). The trigger is made with it on every start (TRIGGERS in src/db/functions.ts).
-- Applied with CREATE OR REPLACE after the migrations on every start (src/db/functions.ts): edit
-- the body here, no migration needed. A new signature needs a migration that drops the old one.
CREATE OR REPLACE FUNCTION order_member_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.deleted_at IS DISTINCT FROM OLD.deleted_at THEN
    -- Locked in the order of their ids, so two such updates never wait on each other in a cycle.
    PERFORM 1 FROM orders WHERE id IN (SELECT order_id FROM order_shares WHERE user_id = NEW.id)
      ORDER BY id FOR UPDATE;
    UPDATE orders SET version = nextval('order_versions')
      WHERE id IN (SELECT order_id FROM order_shares WHERE user_id = NEW.id);
  END IF;
  RETURN NULL;
END
$$;
