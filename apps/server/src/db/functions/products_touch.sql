-- products_touch(): the trigger function that moves a product's updated_at on every update, so
-- the servers' in-memory catalogs (features/products/catalog.ts) see which products changed. The
-- trigger is made with it on every start (TRIGGERS in src/db/functions.ts).
-- Applied with CREATE OR REPLACE after the migrations on every start (src/db/functions.ts): edit
-- the body here, no migration needed. A new signature needs a migration that drops the old one.
CREATE OR REPLACE FUNCTION products_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := clock_timestamp();
  RETURN NEW;
END
$$;
