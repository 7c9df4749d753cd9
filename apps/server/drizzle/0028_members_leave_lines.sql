-- Nobody who is not a member has a share in a cart: lines an earlier release left in active carts
-- after their adder was removed or left go now, each with an item.removed entry by its adder
-- (reason member_left), as leaving with lines=remove does; such people leave every line's sharers,
-- and the sessions whose carts changed move to a new version.
WITH gone AS (
  DELETE FROM "cart_lines" l USING "carts" c
  WHERE c."id" = l."cart_id" AND c."status" = 'active'
    AND NOT EXISTS (SELECT 1 FROM "session_members" m
      WHERE m."session_id" = c."session_id" AND m."user_id" = l."added_by" AND m."role" <> 'pending')
  RETURNING l."cart_id", l."product_id", l."added_by", l."quantity"
), logged AS (
  INSERT INTO "activity" ("session_id", "at", "actor_id", "actor_name", "type", "details")
  SELECT c."session_id", now(), g."added_by", u."name", 'item.removed',
    jsonb_build_object('productId', g."product_id", 'product', p."name", 'quantity', g."quantity",
      'lineOf', u."name", 'reason', 'member_left')
  FROM gone g
  JOIN "carts" c ON c."id" = g."cart_id"
  JOIN "products" p ON p."id" = g."product_id"
  JOIN "users" u ON u."id" = g."added_by"
  RETURNING "session_id"
)
UPDATE "sessions" SET "version" = "version" + 1, "updated_at" = now()
WHERE "id" IN (SELECT "session_id" FROM logged);
--> statement-breakpoint
UPDATE "cart_lines" l SET "shared_with" = ARRAY(
  SELECT x FROM unnest(l."shared_with") x
  WHERE EXISTS (SELECT 1 FROM "session_members" m
    WHERE m."session_id" = c."session_id" AND m."user_id" = x AND m."role" <> 'pending'))
FROM "carts" c
WHERE c."id" = l."cart_id" AND c."status" = 'active'
  AND EXISTS (SELECT 1 FROM unnest(l."shared_with") x
    WHERE NOT EXISTS (SELECT 1 FROM "session_members" m
      WHERE m."session_id" = c."session_id" AND m."user_id" = x AND m."role" <> 'pending'));
