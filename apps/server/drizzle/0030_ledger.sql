CREATE TABLE "ledger_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "ledger_entries_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" uuid NOT NULL,
	"txn" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"from_id" uuid NOT NULL,
	"to_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"pending" boolean DEFAULT false NOT NULL,
	"ref_id" uuid,
	"by_id" uuid,
	"by_name" text NOT NULL,
	"note" text,
	"idempotency_key" text,
	"activity_seq" bigint,
	CONSTRAINT "ledger_entries_amount_positive" CHECK ("ledger_entries"."amount_cents" > 0),
	CONSTRAINT "ledger_entries_two_people" CHECK ("ledger_entries"."from_id" <> "ledger_entries"."to_id")
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_from_id_users_id_fk" FOREIGN KEY ("from_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_to_id_users_id_fk" FOREIGN KEY ("to_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_by_id_users_id_fk" FOREIGN KEY ("by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_entries_order_idx" ON "ledger_entries" USING btree ("order_id","seq");--> statement-breakpoint
CREATE INDEX "ledger_entries_from_idx" ON "ledger_entries" USING btree ("from_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_to_idx" ON "ledger_entries" USING btree ("to_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_ref_idx" ON "ledger_entries" USING btree ("ref_id");--> statement-breakpoint
-- The book is append-only, as the activity log: a correction is a new entry.
CREATE TRIGGER "ledger_entries_append_only" BEFORE UPDATE OR DELETE ON "ledger_entries"
FOR EACH ROW EXECUTE FUNCTION activity_append_only();
--> statement-breakpoint
-- The book from what the shares stored (docs/decisions/033-one-ledger.md), once, before the
-- columns go: for every order, each share's parts owed to the payers (the payers named, their
-- amounts as weights, else the payee with the whole total; largest remainder, ties to the payer
-- named first) as "share" entries; what recorded transfers paid each payer (settled_to) as
-- "transfer" entries (a negative one, a credit paid back, as "credit_back"); the rest of what was
-- paid (paid_cents beyond the transfers, or the whole share once the payee confirmed it or took
-- it in cash) to the payers other than the member in proportion to what each still lacked, as
-- "confirmed" or "cash", anything beyond that to the payee (a credit); what a written-off share
-- still owed as "written_off" (nothing stays open on it); and, for a share marked paid and not
-- confirmed, a waiting claim ("paid", pending) of what it still owes each payer.
DO $$
DECLARE
  o record;
  s record;
  txn uuid;
  payer_ids uuid[];
  weights bigint[];
  weight_sum bigint;
  n integer;
  j integer;
  k integer;
  parts bigint[];
  fracs bigint[];
  given bigint;
  best integer;
  paid_to bigint[];
  through bigint[];
  owed_others bigint;
  transferred bigint;
  effective bigint;
  left_over bigint;
  lacking bigint[];
  lacking_sum bigint;
  rest bigint;
  settled_kind text;
  key text;
  amount bigint;
  paid_at timestamptz;
  claim uuid;
BEGIN
  FOR o IN SELECT * FROM orders ORDER BY number LOOP
    txn := gen_random_uuid();
    SELECT array_agg(user_id ORDER BY position), array_agg(amount_cents::bigint ORDER BY position)
      INTO payer_ids, weights FROM order_payers WHERE order_id = o.id;
    IF payer_ids IS NULL THEN
      CONTINUE WHEN o.payee_id IS NULL;
      payer_ids := ARRAY[o.payee_id];
      weights := ARRAY[1::bigint];
    END IF;
    n := array_length(payer_ids, 1);
    SELECT sum(w) INTO weight_sum FROM unnest(weights) w;
    FOR s IN SELECT * FROM order_shares WHERE order_id = o.id ORDER BY user_id LOOP
      -- The share's parts: floors, then the cents left to the largest remainders.
      parts := array_fill(0::bigint, ARRAY[n]);
      fracs := array_fill(0::bigint, ARRAY[n]);
      given := 0;
      FOR j IN 1..n LOOP
        parts[j] := (s.total_cents::bigint * weights[j]) / weight_sum;
        fracs[j] := (s.total_cents::bigint * weights[j]) % weight_sum;
        given := given + parts[j];
      END LOOP;
      WHILE given < s.total_cents LOOP
        best := 1;
        FOR j IN 2..n LOOP
          IF fracs[j] > fracs[best] THEN best := j; END IF;
        END LOOP;
        parts[best] := parts[best] + 1;
        fracs[best] := -1;
        given := given + 1;
      END LOOP;
      -- What recorded transfers paid each payer, and the parts owed to the others.
      paid_to := array_fill(0::bigint, ARRAY[n]);
      FOR key, amount IN SELECT t.key, t.value::bigint FROM jsonb_each_text(s.settled_to) t LOOP
        k := array_position(payer_ids, key::uuid);
        IF k IS NOT NULL THEN paid_to[k] := amount; END IF;
        IF amount > 0 AND key::uuid <> s.user_id THEN
          INSERT INTO ledger_entries (order_id, txn, at, kind, from_id, to_id, amount_cents, by_id,
            by_name, note)
          VALUES (o.id, txn, coalesce(s.confirmed_at, s.paid_at, o.placed_at), 'transfer',
            key::uuid, s.user_id, amount, s.user_id, s.name, 'Carried over');
        ELSIF amount < 0 AND key::uuid <> s.user_id THEN
          INSERT INTO ledger_entries (order_id, txn, at, kind, from_id, to_id, amount_cents, by_id,
            by_name, note)
          VALUES (o.id, txn, coalesce(s.confirmed_at, o.placed_at), 'credit_back', s.user_id,
            key::uuid, -amount, key::uuid, s.name, 'Carried over');
        END IF;
      END LOOP;
      owed_others := 0;
      transferred := 0;
      FOR j IN 1..n LOOP
        IF payer_ids[j] <> s.user_id THEN
          owed_others := owed_others + parts[j];
          transferred := transferred + paid_to[j];
          IF parts[j] > 0 THEN
            INSERT INTO ledger_entries (order_id, txn, at, kind, from_id, to_id, amount_cents,
              by_id, by_name, note)
            VALUES (o.id, txn, o.placed_at, 'share', s.user_id, payer_ids[j], parts[j],
              o.placed_by_id, o.placed_by_name, 'Carried over');
          END IF;
        END IF;
      END LOOP;
      -- Paid through the payee: confirmed or taken in cash means the whole of it was paid then.
      effective := CASE WHEN s.status = 'confirmed' AND s.settled_as IN ('transfer', 'cash')
        THEN greatest(owed_others, s.paid_cents) ELSE s.paid_cents END;
      left_over := greatest(0, effective - transferred);
      through := array_fill(0::bigint, ARRAY[n]);
      lacking := array_fill(0::bigint, ARRAY[n]);
      lacking_sum := 0;
      FOR j IN 1..n LOOP
        IF payer_ids[j] <> s.user_id THEN
          lacking[j] := greatest(0, parts[j] - paid_to[j]);
          lacking_sum := lacking_sum + lacking[j];
        END IF;
      END LOOP;
      IF left_over >= lacking_sum THEN
        through := lacking;
        given := lacking_sum;
      ELSE
        given := 0;
        FOR j IN 1..n LOOP
          through[j] := (left_over * lacking[j]) / lacking_sum;
          fracs[j] := (left_over * lacking[j]) % lacking_sum;
          given := given + through[j];
        END LOOP;
        WHILE given < left_over LOOP
          best := 1;
          FOR j IN 2..n LOOP
            IF fracs[j] > fracs[best] THEN best := j; END IF;
          END LOOP;
          through[best] := through[best] + 1;
          fracs[best] := -1;
          given := given + 1;
        END LOOP;
      END IF;
      -- Beyond every part: paid to the payee, who owes it back (a credit).
      IF left_over > given THEN
        k := array_position(payer_ids, o.payee_id);
        IF k IS NULL OR payer_ids[k] = s.user_id THEN
          k := (SELECT min(i) FROM generate_subscripts(payer_ids, 1) i
            WHERE payer_ids[i] <> s.user_id);
        END IF;
        IF k IS NOT NULL THEN through[k] := through[k] + (left_over - given); END IF;
      END IF;
      settled_kind := CASE WHEN s.settled_as = 'cash' THEN 'cash' ELSE 'confirmed' END;
      paid_at := coalesce(s.confirmed_at, s.paid_at, o.placed_at);
      FOR j IN 1..n LOOP
        CONTINUE WHEN payer_ids[j] = s.user_id;
        IF through[j] > 0 AND s.paid_at IS NOT NULL THEN
          -- Said paid, then confirmed (or taken in cash instead): the claim, and what settled it.
          INSERT INTO ledger_entries (order_id, txn, at, kind, from_id, to_id, amount_cents,
            pending, by_id, by_name, note)
          VALUES (o.id, txn, s.paid_at, 'paid', payer_ids[j], s.user_id, through[j], true,
            s.user_id, s.name, 'Carried over')
          RETURNING id INTO claim;
          IF settled_kind = 'cash' THEN
            INSERT INTO ledger_entries (order_id, txn, at, kind, from_id, to_id, amount_cents,
              pending, ref_id, by_id, by_name, note)
            VALUES (o.id, txn, paid_at, 'reversal', s.user_id, payer_ids[j], through[j], true,
              claim, o.payee_id, o.payee_name, 'Carried over');
          END IF;
          INSERT INTO ledger_entries (order_id, txn, at, kind, from_id, to_id, amount_cents,
            ref_id, by_id, by_name, note)
          VALUES (o.id, txn, paid_at, settled_kind, payer_ids[j], s.user_id, through[j],
            CASE WHEN settled_kind = 'confirmed' THEN claim END, o.payee_id, o.payee_name,
            'Carried over');
        ELSIF through[j] > 0 THEN
          INSERT INTO ledger_entries (order_id, txn, at, kind, from_id, to_id, amount_cents, by_id,
            by_name, note)
          VALUES (o.id, txn, paid_at, settled_kind, payer_ids[j], s.user_id, through[j],
            o.payee_id, o.payee_name, 'Carried over');
        END IF;
        rest := parts[j] - paid_to[j] - through[j];
        IF s.settled_as = 'written_off' AND rest <> 0 THEN
          INSERT INTO ledger_entries (order_id, txn, at, kind, from_id, to_id, amount_cents, by_id,
            by_name, note)
          VALUES (o.id, txn, coalesce(s.confirmed_at, o.placed_at), 'written_off',
            CASE WHEN rest > 0 THEN payer_ids[j] ELSE s.user_id END,
            CASE WHEN rest > 0 THEN s.user_id ELSE payer_ids[j] END,
            abs(rest), o.payee_id, o.payee_name, 'Carried over');
        ELSIF s.status = 'paid' AND rest > 0 THEN
          INSERT INTO ledger_entries (order_id, txn, at, kind, from_id, to_id, amount_cents,
            pending, by_id, by_name, note)
          VALUES (o.id, txn, coalesce(s.paid_at, o.placed_at), 'paid', payer_ids[j], s.user_id,
            rest, true, s.user_id, s.name, 'Carried over');
        END IF;
      END LOOP;
    END LOOP;
  END LOOP;
END
$$;
--> statement-breakpoint
ALTER TABLE "order_shares" DROP COLUMN "paid_cents";--> statement-breakpoint
ALTER TABLE "order_shares" DROP COLUMN "status";--> statement-breakpoint
ALTER TABLE "order_shares" DROP COLUMN "paid_at";--> statement-breakpoint
ALTER TABLE "order_shares" DROP COLUMN "confirmed_at";--> statement-breakpoint
ALTER TABLE "order_shares" DROP COLUMN "settled_as";--> statement-breakpoint
ALTER TABLE "order_shares" DROP COLUMN "settled_to";