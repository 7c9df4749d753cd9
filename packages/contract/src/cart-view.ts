/**
 * What the database's cart functions answer (apps/server/src/db/functions): `cart_view()` (the
 * cart, its session, members and lines as one JSON value, which every cart answer is built from)
 * and the rows of `cart_write()` and `cart_write_batch()` (a verdict, the stock figures of a stock
 * refusal, and the cart's view). The server's types are these schemas' types, and a server test
 * parses real answers with them, so a renamed, missing or extra field fails there.
 *
 * Internal to the server and its tests: no API answer has this shape (the carts service builds
 * the API's `Cart` from it).
 */
import { z } from "zod";
import { CART_STATUSES, SubstituteSchema } from "./carts.ts";
import { SESSION_ROLES } from "./permissions.ts";
import { BUDGET_MODES } from "./presets.ts";
import { SessionStatusSchema, SplitPolicySchema } from "./sessions.ts";

/** A timestamp as PostgreSQL writes it into JSON ("2026-11-25T10:00:00.123+00:00"). */
const timestamp = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "a timestamp");
const cents = z.number().int();

export const CartViewSchema = z.strictObject({
  cart: z.strictObject({
    id: z.uuid(),
    status: z.enum(CART_STATUSES),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
  session: z.strictObject({
    id: z.uuid(),
    name: z.string(),
    status: SessionStatusSchema,
    creatorId: z.uuid(),
    version: z.number().int(),
    splitPolicy: SplitPolicySchema,
    /** Members the creator named to approve lines waiting for approval (besides the creator). */
    approvers: z.array(z.uuid()),
    /** The session's deadline as stored (whether it passed is the server's clock's to say). */
    deadline: z
      .strictObject({
        closesAt: timestamp,
        remindAt: z.array(z.number().int()),
        autoCheckout: z.boolean(),
        remindedOnSetAt: timestamp.nullable(),
      })
      .nullable(),
  }),
  /** Everyone with a membership row, pending requesters included, oldest first. */
  members: z.array(
    z.strictObject({
      userId: z.uuid(),
      name: z.string(),
      role: z.enum(SESSION_ROLES),
      budgetCents: cents.nullable(),
      ready: z.boolean(),
      /** The share total the mark was set at; see the server's lib/ready-mark.ts. */
      readyTotalCents: cents.nullable(),
      budgetMode: z.enum(BUDGET_MODES),
      child: z.boolean(),
    }),
  ),
  /** Oldest first. */
  lines: z.array(
    z.strictObject({
      id: z.uuid(),
      quantity: z.number().int(),
      addedAt: timestamp,
      /** Frozen once the session ended, else the product's current price; a free line's estimate. */
      unitPriceCents: cents,
      /** The product's price when the line was added (frozen lines: their frozen price). */
      addedPriceCents: cents,
      /** The price members last saw: the one acknowledged after a change, else the added one. */
      seenPriceCents: cents,
      /** The product is on sale (false: made unavailable since; a free line always is). */
      available: z.boolean(),
      /** The product's stock now (null on a free line: it has none). */
      stock: z.number().int().nullable(),
      /** Null on a free line (its name is productName, it has no picture). */
      productId: z.uuid().nullable(),
      productName: z.string(),
      slug: z.string().nullable(),
      imageHash: z.string().nullable(),
      /** The picture the product shows: its drawn SVG or its photo (null on a free line). */
      imageType: z.enum(["svg", "webp"]).nullable(),
      color: z.string().nullable(),
      /** Who added the line (its adder). */
      userId: z.uuid(),
      userName: z.string(),
      /** Members who share the line in equal parts, by name; empty: the session's policy applies. */
      sharedWith: z.array(z.strictObject({ _id: z.uuid(), name: z.string() })),
      /** Carried into the series' next session. */
      staple: z.boolean(),
      note: z.string().nullable(),
      substitute: SubstituteSchema,
      /** Since when the line waits for approval (its adder's budget asks first); null: it does not. */
      pendingAt: timestamp.nullable(),
      /** Members the line is hidden from (a private line); the reads leave it out for them. */
      hiddenFrom: z.array(z.uuid()),
    }),
  ),
});
export type CartView = z.infer<typeof CartViewSchema>;

/**
 * How `cart_write()` answers a change: done, nothing to do, or why it was refused: first the
 * gate's refusals (`session_gate()`, from the permissions table), then the line's own.
 */
export const CART_WRITE_VERDICTS = [
  "ok",
  /** A minus at quantity 1: nothing written, no new version. */
  "unchanged",
  /** Not a member, or only a pending one. */
  "not_member",
  /** The caller's role may not do it (`role` says which role): a viewer, a participant clearing. */
  "role",
  /** The session ended without an order. */
  "ended",
  /** The cart was checked out as order `order_number`. */
  "checked_out",
  /** The session's deadline has passed (the cart closed at `closes_at`, by the write's `now`). */
  "locked",
  "no_product",
  "no_line",
  /** Another member's line, by a role that may not change any line (cart.changeAnyLine). */
  "not_own",
  /** Short of stock across the cart's lines: `product_stock` and `already_in_cart` say how. */
  "stock",
  /** The line would hold more than the most a line holds. */
  "line_full",
  /** Restore: no removal of that line by the caller within the window (or it is back already). */
  "no_removal",
  /** Restore: the line's adder has that product on a line again. */
  "line_exists",
  /** A step or restore of a line whose adder is no longer a member: nobody changes it. */
  "adder_left",
  /** An add hidden from the caller (`hiddenFrom`). */
  "hide_self",
  /** An add hidden from someone who sees every private line (the creator). */
  "hide_creator",
  /** An add hidden from someone who is not a member. */
  "hide_stranger",
  /**
   * An add hidden from members the caller's line of that product is not hidden from: more of a
   * product joins its line, which keeps its own hidden-from.
   */
  "hidden_apart",
  /**
   * Done, and the line now waits for approval: its adder's budget asks first and the change took
   * their share over it (the cart's view comes with it, as with "ok").
   */
  "pending",
  /** Only from a batch: this change failed unexpectedly and was rolled back alone. */
  "error",
] as const;
export type CartWriteVerdict = (typeof CART_WRITE_VERDICTS)[number];

/** One `cart_write()` row: the cart's view comes with "ok", "pending" and "unchanged". */
export const CartWriteResultSchema = z.strictObject({
  verdict: z.enum(CART_WRITE_VERDICTS),
  product_stock: z.number().int().nullable(),
  already_in_cart: z.number().int().nullable(),
  /** The caller's role in the session, as the gate read it (null: none). */
  role: z.enum(SESSION_ROLES).nullable(),
  /** With "checked_out": the order's number. */
  order_number: z.number().int().nullable(),
  /** The session's deadline (null: none), which "locked" names. */
  closes_at: z.coerce.date().nullable(),
  view: CartViewSchema.nullable(),
});
export type CartWriteResult = z.infer<typeof CartWriteResultSchema>;

/**
 * One `cart_write_batch()` row: the same, plus the error of a change that failed unexpectedly.
 * A cart's view comes once, on the row of its last change in the batch.
 */
export const CartWriteBatchResultSchema = CartWriteResultSchema.extend({
  error: z.string().nullable(),
});
export type CartWriteBatchResult = z.infer<typeof CartWriteBatchResultSchema>;
