-- Group commit (issue 22; docs/decisions/012): the cart changes waiting in the embedded database's
-- queue go in as one statement, so they share one commit instead of paying one each. Each change
-- is still cart_write() on its own, in a subtransaction: one that fails unexpectedly is rolled back
-- alone and answers 'error' with its message; the others stand. The answers come back in order.
CREATE FUNCTION cart_write_batch(p_writes json, p_max integer)
RETURNS TABLE (
  verdict text, product_stock integer, already_in_cart integer, view json, error text
) LANGUAGE plpgsql AS $$
DECLARE
  w json;
  r record;
BEGIN
  FOR w IN SELECT value FROM json_array_elements(p_writes) LOOP
    BEGIN
      SELECT * INTO r FROM cart_write(
        w->>'op', (w->>'cart')::uuid, (w->>'user')::uuid, (w->>'product')::uuid,
        (w->>'line')::uuid, (w->>'amount')::integer, p_max, (w->>'now')::timestamptz);
      verdict := r.verdict;
      product_stock := r.product_stock;
      already_in_cart := r.already_in_cart;
      view := r.view;
      error := NULL;
    EXCEPTION WHEN OTHERS THEN
      verdict := 'error';
      product_stock := NULL;
      already_in_cart := NULL;
      view := NULL;
      error := SQLERRM;
    END;
    RETURN NEXT;
  END LOOP;
END
$$;
