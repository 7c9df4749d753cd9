/**
 * The ledger's entries as the API shows them (docs/decisions/033-one-ledger.md): each entry says
 * `from` owes `to` `amount` more on one order. A share is written from the member to the payer;
 * a payment, cash, a write-off, a transfer or a credit paid back the other way round, so what B
 * owes A on an order is the sum of posted entries from B to A less those from A to B.
 */
import { z } from "zod";

export const LEDGER_KINDS = [
  "share",
  "paid",
  "confirmed",
  "cash",
  "written_off",
  "transfer",
  "adjustment",
  "credit_back",
  "reversal",
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

const PersonSchema = z.object({ _id: z.string(), name: z.string() });

export const LedgerEntrySchema = z.object({
  _id: z.string(),
  at: z.string(),
  kind: z.enum(LEDGER_KINDS),
  from: PersonSchema,
  to: PersonSchema,
  /** Currency units, more than 0. */
  amount: z.number(),
  by: PersonSchema,
  note: z.string().nullable(),
  /**
   * A claim ("paid") its payer has not confirmed yet: not counted in what is owed until a
   * "confirmed" entry posts it, or a "reversal" voids it.
   */
  pending: z.boolean(),
  /** The entry this one confirms ("confirmed") or voids ("reversal"); null otherwise. */
  ref: z.string().nullable(),
});
export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;

export const EntriesQuerySchema = z.strictObject({
  /** The `_id` of the last entry of the previous page. */
  cursor: z.uuid("cursor is an entry's id").optional(),
  limit: z.coerce
    .number("limit is a number")
    .int("limit is a whole number")
    .min(1, "limit is at least 1")
    .max(200, "limit is at most 200")
    .default(100),
});

export const EntriesResponseSchema = z.object({
  entries: z.array(LedgerEntrySchema),
  nextCursor: z.string().nullable(),
});
