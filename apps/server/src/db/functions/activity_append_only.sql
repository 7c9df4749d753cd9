-- activity_append_only(): the trigger function that refuses any update or delete of a row of an
-- append-only table: the activity log, and the ledger (the triggers are in the migrations). A
-- correction is a new row. An activity entry's hidden_from alone may change (private lines).
-- Applied with CREATE OR REPLACE after the migrations on every start (src/db/functions.ts): edit
-- the body here, no migration needed. A new signature needs a migration that drops the old one.
CREATE OR REPLACE FUNCTION activity_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The one change an activity entry takes: whom it is hidden from, kept in step with its private
  -- line (every other field as it was).
  IF TG_TABLE_NAME = 'activity' AND TG_OP = 'UPDATE'
      AND to_jsonb(OLD) - 'hidden_from' = to_jsonb(NEW) - 'hidden_from' THEN
    RETURN NEW;
  END IF;
  IF TG_TABLE_NAME = 'activity' THEN
    RAISE EXCEPTION 'the activity log is append-only';
  END IF;
  RAISE EXCEPTION '% is append-only: a correction is a new entry', TG_TABLE_NAME;
END
$$;
