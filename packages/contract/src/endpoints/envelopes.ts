/** The answer envelopes and small request bodies of the endpoint table, shared by its resources. */
import { z } from "zod";
import { CartSchema, HiddenFromIdsSchema } from "../carts.ts";
import { nextCursor } from "../pages.ts";
import {
  BudgetModeSchema,
  InviteSchema,
  JoinRequestSchema,
  MyJoinRequestSchema,
  SessionSchema,
} from "../sessions.ts";

// Answer envelopes.
export const SessionResponseSchema = z.object({ session: SessionSchema });
export const SessionsResponseSchema = z.object({ sessions: z.array(SessionSchema) });
/** GET /sessions/my: a page of my sessions, newest first. */
export const SessionsPageSchema = SessionsResponseSchema.extend({ nextCursor });
export const SessionCreatedResponseSchema = z.object({
  message: z.string(),
  session: SessionSchema,
});
export const SessionSyncResponseSchema = z.object({
  sessions: z.array(SessionSchema),
  version: z.number().int(),
});
export const MessageWithSessionIdSchema = z.object({ message: z.string(), sessionId: z.string() });
export const InvitesResponseSchema = z.object({ invites: z.array(InviteSchema) });
export const JoinRequestsResponseSchema = z.object({ requests: z.array(JoinRequestSchema) });
export const MyJoinRequestsResponseSchema = z.object({ requests: z.array(MyJoinRequestSchema) });
export const CartResponseSchema = z.object({ cart: CartSchema });
export const CartsResponseSchema = z.object({ carts: z.array(CartSchema) });
/** GET /carts/history: a page of my ended sessions' carts, newest first. */
export const CartsPageSchema = CartsResponseSchema.extend({ nextCursor });
/** Over-budget warnings ride on the answer of the write that caused them; they never block it. */
export const WarningSchema = z.object({
  code: z.literal("OVER_BUDGET"),
  userId: z.string(),
  message: z.string(),
});
export const MessageAndCartSchema = z.object({
  message: z.string(),
  cart: CartSchema,
  warnings: z.array(WarningSchema).optional(),
});
export const CartWithWarningsSchema = z.object({
  cart: CartSchema,
  warnings: z.array(WarningSchema).optional(),
});
export const SharedWithBodySchema = z.strictObject({
  userIds: z.array(z.uuid("Unknown member")).max(100),
});
/** Who a private line is hidden from: members, never its adder nor the session's creator. */
export const HiddenFromBodySchema = z.strictObject({
  userIds: HiddenFromIdsSchema,
});
export const MemberUpdateBodySchema = z
  .strictObject({
    role: z.enum(["participant", "viewer"]).optional(),
    budget: z
      .number()
      .min(0, "A budget cannot be negative")
      .max(1_000_000, "A budget is at most 1,000,000")
      .refine(
        (n) =>
          Number.isInteger(Math.round(n * 100)) && Math.abs(n * 100 - Math.round(n * 100)) < 1e-6,
        "At most two decimals",
      )
      .nullable()
      .optional(),
    /** What the budget does when the share passes it (the creator's to set). */
    budgetMode: BudgetModeSchema.optional(),
    /** Marked as a child (the creator's to set; not the creator). */
    child: z.boolean("child is true or false").optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: "Send a role, a budget, a budgetMode or child",
    path: ["role"],
  });
export const ReadyBodySchema = z.strictObject({ ready: z.boolean() });
export const CredentialsChangeResponseSchema = z.object({
  message: z.string(),
  userId: z.string(),
});
