-- Every order's version, moved by triggers on every write to what its view shows (their functions
-- are in src/db/functions): the servers keep each order's view keyed by it. Existing orders draw a
-- version each.
CREATE SEQUENCE "public"."order_versions" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "version" bigint DEFAULT nextval('order_versions') NOT NULL;