-- A mark per person, written by every write that moves the version of an order they are on or
-- takes them off one (triggers made on every start: order_people_mark(), order_part_touch(),
-- order_mark()). Balances, the settle plan and the CSV of all orders are kept while the sum of
-- their people's weights reads the same: one index lookup per person instead of every order.
-- Writers only insert; each folds the person's older marks it can lock without waiting into its
-- own. No rows to fill in: every server starts with nothing kept.
CREATE TABLE "order_marks" (
	"person_id" uuid NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "order_marks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"weight" bigint DEFAULT 1 NOT NULL,
	CONSTRAINT "order_marks_person_id_id_pk" PRIMARY KEY("person_id","id")
);
