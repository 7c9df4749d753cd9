CREATE TABLE "activity" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "activity_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"session_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor_id" uuid,
	"actor_name" text NOT NULL,
	"type" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activity" ADD CONSTRAINT "activity_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity" ADD CONSTRAINT "activity_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_session_idx" ON "activity" USING btree ("session_id","seq");
--> statement-breakpoint
-- Append-only: nothing may change or remove an entry (DESIGN section 9, "Activity").
CREATE FUNCTION activity_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the activity log is append-only';
END
$$;
--> statement-breakpoint
CREATE TRIGGER activity_append_only BEFORE UPDATE OR DELETE ON activity
  FOR EACH ROW EXECUTE FUNCTION activity_append_only();
--> statement-breakpoint
-- cart_write() as in 0005, plus one activity entry per committed change, in its transaction.
CREATE OR REPLACE FUNCTION cart_write(
  p_op text, p_cart uuid, p_user uuid, p_product uuid, p_line uuid, p_amount integer,
  p_max integer, p_now timestamptz,
  OUT verdict text, OUT product_stock integer, OUT already_in_cart integer, OUT view json
) LANGUAGE plpgsql AS $$
DECLARE
  v_status text;
  v_session uuid;
  v_role text;
  v_stock integer;
  v_in_cart integer;
  v_own integer;
  v_line uuid;
  v_line_owner uuid;
  v_line_quantity integer;
  v_actor_name text;
  v_product_name text;
  v_owner_name text;
  v_type text;
  v_details jsonb;
BEGIN
  -- Locking the cart row first makes changes to one cart apply one at a time (50 concurrent +1s
  -- give +50). Each later statement reads what committed before the lock was granted (a new
  -- snapshot per statement), so the role, the stock and the lines below are current.
  SELECT c.status, c.session_id INTO v_status, v_session
  FROM carts c
  WHERE c.id = p_cart
  FOR UPDATE;
  SELECT m.role INTO v_role
  FROM session_members m
  WHERE m.session_id = v_session AND m.user_id = p_user;

  IF v_role IS NULL OR v_role = 'pending' THEN
    verdict := 'no_cart'; RETURN;
  ELSIF v_role = 'viewer' THEN
    verdict := 'viewer'; RETURN;
  ELSIF p_op = 'clear' AND v_role <> 'creator' THEN
    verdict := 'not_creator'; RETURN;
  ELSIF v_status <> 'active' THEN
    verdict := 'ended'; RETURN;
  END IF;

  IF p_op = 'add' THEN
    IF p_amount IS NULL OR p_amount < 1 THEN
      RAISE EXCEPTION 'cart_write: add needs a positive amount, not %', p_amount;
    END IF;
    SELECT p.stock, coalesce(sum(l.quantity), 0),
           coalesce(sum(l.quantity) FILTER (WHERE l.added_by = p_user), 0)
    INTO v_stock, v_in_cart, v_own
    FROM products p
    LEFT JOIN cart_lines l ON l.product_id = p.id AND l.cart_id = p_cart
    WHERE p.id = p_product
    GROUP BY p.id;
    IF v_stock IS NULL THEN
      verdict := 'no_product'; RETURN;
    ELSIF v_in_cart + p_amount > v_stock THEN
      verdict := 'stock'; product_stock := v_stock; already_in_cart := v_in_cart; RETURN;
    ELSIF v_own + p_amount > p_max THEN
      verdict := 'line_full'; RETURN;
    END IF;
    INSERT INTO cart_lines AS l (cart_id, product_id, added_by, quantity, added_at, updated_at)
    VALUES (p_cart, p_product, p_user, p_amount, p_now, p_now)
    ON CONFLICT (cart_id, product_id, added_by)
    DO UPDATE SET quantity = l.quantity + p_amount, updated_at = p_now;
    SELECT name INTO v_product_name FROM products WHERE id = p_product;
    v_type := 'item.added';
    v_details := jsonb_build_object('productId', p_product, 'product', v_product_name,
      'quantity', p_amount);

  ELSIF p_op IN ('step', 'remove') THEN
    SELECT l.id, l.added_by, l.quantity INTO v_line, v_line_owner, v_line_quantity
    FROM cart_lines l
    WHERE l.cart_id = p_cart AND l.product_id = p_product
      AND (l.id = p_line OR (p_line IS NULL AND l.added_by = p_user));
    IF v_line IS NULL THEN
      verdict := 'no_line'; RETURN;
    ELSIF v_line_owner <> p_user AND v_role <> 'creator' THEN
      verdict := 'not_own'; RETURN;
    END IF;
    SELECT p.name, u.name INTO v_product_name, v_owner_name
    FROM products p, users u WHERE p.id = p_product AND u.id = v_line_owner;
    IF p_op = 'remove' THEN
      DELETE FROM cart_lines WHERE id = v_line;
      v_type := 'item.removed';
      v_details := jsonb_build_object('productId', p_product, 'product', v_product_name,
        'quantity', v_line_quantity, 'lineOf', v_owner_name);
    ELSIF p_amount = 1 THEN
      IF v_line_quantity >= p_max THEN
        verdict := 'line_full'; RETURN;
      END IF;
      SELECT p.stock, coalesce(sum(l.quantity), 0) INTO v_stock, v_in_cart
      FROM products p
      LEFT JOIN cart_lines l ON l.product_id = p.id AND l.cart_id = p_cart
      WHERE p.id = p_product
      GROUP BY p.id;
      IF v_in_cart + 1 > v_stock THEN
        verdict := 'stock'; product_stock := v_stock; already_in_cart := v_in_cart; RETURN;
      END IF;
      UPDATE cart_lines SET quantity = quantity + 1, updated_at = p_now WHERE id = v_line;
      v_type := 'item.quantity';
      v_details := jsonb_build_object('productId', p_product, 'product', v_product_name,
        'quantity', v_line_quantity + 1, 'change', 1, 'lineOf', v_owner_name);
    ELSIF p_amount = -1 THEN
      IF v_line_quantity <= 1 THEN
        -- Minus at 1 does nothing (SPEC 5): no write, no new version.
        verdict := 'unchanged'; view := cart_view(p_cart); RETURN;
      END IF;
      UPDATE cart_lines SET quantity = quantity - 1, updated_at = p_now WHERE id = v_line;
      v_type := 'item.quantity';
      v_details := jsonb_build_object('productId', p_product, 'product', v_product_name,
        'quantity', v_line_quantity - 1, 'change', -1, 'lineOf', v_owner_name);
    ELSE
      RAISE EXCEPTION 'cart_write: a step is +1 or -1, not %', p_amount;
    END IF;

  ELSIF p_op = 'clear' THEN
    WITH gone AS (DELETE FROM cart_lines WHERE cart_id = p_cart RETURNING quantity)
    SELECT jsonb_build_object('lines', count(*), 'items', coalesce(sum(quantity), 0))
    INTO v_details FROM gone;
    v_type := 'cart.cleared';

  ELSE
    RAISE EXCEPTION 'cart_write: unknown op %', p_op;
  END IF;

  UPDATE carts SET updated_at = p_now WHERE id = p_cart;
  UPDATE sessions SET version = version + 1, updated_at = p_now WHERE id = v_session;
  -- The activity log's entry, in this same transaction (issue 21).
  SELECT name INTO v_actor_name FROM users WHERE id = p_user;
  INSERT INTO activity (session_id, at, actor_id, actor_name, type, details)
  VALUES (v_session, p_now, p_user, v_actor_name, v_type, v_details);
  verdict := 'ok';
  view := cart_view(p_cart);
END
$$;
