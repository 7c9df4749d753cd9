-- order_touch(): the trigger function that gives an order a new version on every update of its
-- row (adjustments, totals), whoever writes it: the servers keep each order's built view keyed by
-- its id and version (features/orders/reading/kept.ts), so a write is never answered stale. The
-- trigger is made with it on every start (TRIGGERS in src/db/functions.ts).
-- Applied with CREATE OR REPLACE after the migrations on every start (src/db/functions.ts): edit
-- the body here, no migration needed. A new signature needs a migration that drops the old one.
CREATE OR REPLACE FUNCTION order_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.version := nextval('order_versions');
  RETURN NEW;
END
$$;
