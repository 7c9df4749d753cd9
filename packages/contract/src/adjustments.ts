/**
 * What happened at the shop after checkout, as the API speaks it (currency units): the payee
 * records adjustments line by line or on the whole order; a member with a share may dispute one.
 * The re-split itself is adjust.ts.
 */
import { z } from "zod";
import { ADJUSTMENT_KINDS } from "./adjust.ts";
import { QUANTITY_MAX } from "./constants.ts";
import { text } from "./text.ts";

export const ADJUSTMENT_NAME_MAX_LENGTH = 120;
export const ADJUSTMENT_NOTE_MAX_LENGTH = 500;
export const DISPUTE_COMMENT_MAX_LENGTH = 500;
/** The largest amount one adjustment may name, in currency units. */
export const ADJUSTMENT_AMOUNT_MAX = 100_000;

const twoDecimals = (n: number) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6;
const lineIndex = z
  .number("lineIndex is a number")
  .int("lineIndex is a whole number")
  .min(0, "lineIndex is 0 or more");
const unitPrice = z
  .number("unitPrice is a number")
  .min(0, "unitPrice cannot be negative")
  .max(ADJUSTMENT_AMOUNT_MAX, "unitPrice is too large")
  .refine(twoDecimals, "unitPrice has at most two decimals");
/** Signed: a refund taken back, a discount; never zero (it would change nothing). */
const amount = z
  .number("amount is a number")
  .min(-ADJUSTMENT_AMOUNT_MAX, "amount is too large")
  .max(ADJUSTMENT_AMOUNT_MAX, "amount is too large")
  .refine((n) => n !== 0, "amount cannot be 0")
  .refine(twoDecimals, "amount has at most two decimals");
const quantity = z
  .number("quantity is a number")
  .int("quantity is a whole number")
  .min(0, "quantity is 0 or more")
  .max(QUANTITY_MAX, `quantity is at most ${QUANTITY_MAX}`);
const name = text({
  min: 1,
  minMessage: "name is required",
  max: ADJUSTMENT_NAME_MAX_LENGTH,
  name: true,
});
const note = text({ max: ADJUSTMENT_NOTE_MAX_LENGTH }).optional();

/**
 * POST /orders/:id/adjustments, one shape per kind: missing (not delivered), substituted (another
 * name and unit price, optionally quantity), quantity, price, refund (`amount` refunded on the
 * line; negative takes one back), order_fee (`amount` on the whole order: a fee difference, or a
 * discount when negative). Whether it fits the order (a line that exists, a refund within the
 * line's price, no negative share) the server checks against the order.
 */
export const AdjustmentBodySchema = z.discriminatedUnion(
  "kind",
  [
    z.strictObject({ kind: z.literal("missing"), lineIndex, note }),
    z.strictObject({
      kind: z.literal("substituted"),
      lineIndex,
      name,
      unitPrice,
      quantity: quantity.optional(),
      note,
    }),
    z.strictObject({ kind: z.literal("quantity"), lineIndex, quantity, note }),
    z.strictObject({ kind: z.literal("price"), lineIndex, unitPrice, note }),
    z.strictObject({ kind: z.literal("refund"), lineIndex, amount, note }),
    z.strictObject({ kind: z.literal("order_fee"), amount, name: name.optional(), note }),
  ],
  { error: `kind is one of ${ADJUSTMENT_KINDS.join(", ")}` },
);
export type AdjustmentBody = z.input<typeof AdjustmentBodySchema>;

export const DisputeBodySchema = z.strictObject({
  comment: text({
    min: 1,
    minMessage: "comment is required",
    max: DISPUTE_COMMENT_MAX_LENGTH,
    multiline: true,
  }),
});
export type DisputeBody = z.input<typeof DisputeBodySchema>;

const PersonSchema = z.object({ _id: z.string(), name: z.string() });

export const DisputeSchema = z.object({ by: PersonSchema, at: z.string(), comment: z.string() });

/** One recorded adjustment and the disputes against it. */
export const AdjustmentSchema = z.object({
  _id: z.string(),
  at: z.string(),
  by: PersonSchema,
  kind: z.enum(ADJUSTMENT_KINDS),
  lineIndex: z.number().int().optional(),
  quantity: z.number().int().optional(),
  unitPrice: z.number().optional(),
  amount: z.number().optional(),
  name: z.string().optional(),
  note: z.string().optional(),
  disputes: z.array(DisputeSchema),
});
export type Adjustment = z.infer<typeof AdjustmentSchema>;

/** A line as delivered after the adjustments (null on the line while nothing changed it). */
export const AdjustedLineSchema = z.object({
  name: z.string(),
  unitPrice: z.number(),
  quantity: z.number().int(),
  refunded: z.number(),
  missing: z.boolean(),
  lineTotal: z.number(),
});
