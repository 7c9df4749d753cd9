/** Several payers and fewer transfers: the request and answer shapes (rules: owed.ts). */
import { z } from "zod";

/** Currency units, more than zero, at most two decimals (as order amounts are shown). */
const amount = (field: string) =>
  z
    .number({ error: `${field} is a number` })
    .positive(`${field} must be more than 0`)
    .max(10_000_000, `${field} is too large`)
    .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, "At most two decimals");

/**
 * Who paid the shop and how much, in the order given; adding up to the total and each payer being
 * the payee or a member with a share are the server's checks (it knows the total).
 */
const PayersSchema = z
  .array(
    z.strictObject({
      userId: z.uuid("Choose a member of the order"),
      amount: amount("Amount"),
    }),
  )
  .min(1, "At least one payer")
  .max(20, "At most 20 payers")
  .refine(
    (payers) => new Set(payers.map((p) => p.userId)).size === payers.length,
    "Each payer once",
  );

/** PUT /orders/:id/payers: the payee says who paid the shop (after checkout). */
export const SetPayersBodySchema = z.strictObject({ payers: PayersSchema });
export type SetPayersBody = z.infer<typeof SetPayersBodySchema>;

/**
 * POST /sessions/:id/checkout: optionally who pays the shop, by the same rules as the payers set
 * later; no body, or no `payers`, means the payee pays it all.
 */
export const CheckoutBodySchema = z
  .strictObject({
    payers: PayersSchema.optional(),
    /**
     * Lines that want more than the stock has left: "refuse" (the default) answers 409
     * OUT_OF_STOCK naming them; "take_what_is_left" checks out what there is.
     */
    overStock: z
      .enum(["take_what_is_left", "refuse"], {
        error: 'overStock is "take_what_is_left" or "refuse"',
      })
      .optional(),
    /**
     * Lines waiting for approval: "wait" (the default) answers 409 PENDING_APPROVALS naming them;
     * "drop" checks out without them (they go).
     */
    pending: z.enum(["wait", "drop"], { error: 'pending is "wait" or "drop"' }).optional(),
  })
  .nullish();
export type CheckoutBody = z.input<typeof CheckoutBodySchema>;

/** POST /balances/transfers: the caller paid `to` this much outside the app. */
export const RecordTransferBodySchema = z.strictObject({
  to: z.uuid("Choose who you paid"),
  amount: amount("Amount"),
});
export type RecordTransferBody = z.infer<typeof RecordTransferBodySchema>;

export const RecordTransferResponseSchema = z.object({
  settled: z.array(z.object({ orderId: z.string(), amount: z.number() })),
});

/** GET /balances/settle-plan?with=: only the orders you share with that person. */
export const SettlePlanQuerySchema = z.strictObject({
  with: z.uuid("Choose a person").optional(),
});

const PlanPersonSchema = z.object({ _id: z.string(), name: z.string() });
export const PlannedTransferSchema = z.object({
  from: PlanPersonSchema,
  to: PlanPersonSchema,
  amount: z.number(),
  /**
   * Whether POST /balances/transfers can record it: its amount settles whole parts between the
   * two. False when the plan nets debts through a third person (Cat's debt to Ann paid to Ben).
   */
  recordable: z.boolean(),
});
export type PlannedTransfer = z.infer<typeof PlannedTransferSchema>;
export const SettlePlanResponseSchema = z.object({ transfers: z.array(PlannedTransferSchema) });
