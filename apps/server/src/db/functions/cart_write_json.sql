-- cart_write_json(write, max): cart_write_core() for one change of a batch as cart_write_batch()
-- reads it (a JSON object whose keys are cart_write()'s arguments without `p_`, in camel case),
-- so that the batch's two passes make the same call.
-- Applied with CREATE OR REPLACE after the migrations on every start (src/db/functions.ts): edit
-- the body here, no migration needed. A new signature needs a migration that drops the old one.
CREATE OR REPLACE FUNCTION cart_write_json(p_write json, p_max integer)
RETURNS TABLE (
  verdict text, product_stock integer, already_in_cart integer, role text, order_number integer,
  closes_at timestamptz, entry activity
) LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT * FROM cart_write_core(p_write->>'op', (p_write->>'cart')::uuid,
    (p_write->>'user')::uuid, (p_write->>'product')::uuid, (p_write->>'line')::uuid,
    (p_write->>'quantity')::integer, (p_write->>'change')::integer,
    (p_write->>'restoreSeconds')::integer, p_max, (p_write->>'now')::timestamptz,
    CASE WHEN json_typeof(p_write->'hiddenFrom') = 'array' THEN ARRAY(
      SELECT h::uuid FROM json_array_elements_text(p_write->'hiddenFrom') h) END);
END
$$;
