-- order_sort_key(): the trigger function that copies an order's sort key (placed_at, number) onto
-- a share or payer row as it is inserted, whatever inserts it: My Orders pages a person's orders
-- from their rows' indexes in that order (features/orders/reading/orders.ts). An order's
-- placed_at and number never change after checkout, so the copy never goes stale. The triggers
-- are made with it on every start (TRIGGERS in src/db/functions.ts).
-- Applied with CREATE OR REPLACE after the migrations on every start (src/db/functions.ts): edit
-- the body here, no migration needed. A new signature needs a migration that drops the old one.
CREATE OR REPLACE FUNCTION order_sort_key() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT o.placed_at, o.number INTO NEW.placed_at, NEW.order_number
    FROM orders o WHERE o.id = NEW.order_id;
  RETURN NEW;
END
$$;
