/**
 * Buy again: what a cart's group bought before, offered for one tap. The server's rule (which
 * orders count, how far back) is in apps/server/src/features/carts/buy-again.ts.
 */
import { z } from "zod";

export const BUY_AGAIN_LIMIT_MAX = 50;
export const BUY_AGAIN_LIMIT_DEFAULT = 12;

export const BuyAgainQuerySchema = z.strictObject({
  limit: z.coerce
    .number("limit is a number")
    .int("limit is a whole number")
    .min(1, `limit is 1 to ${BUY_AGAIN_LIMIT_MAX}`)
    .max(BUY_AGAIN_LIMIT_MAX, `limit is 1 to ${BUY_AGAIN_LIMIT_MAX}`)
    .default(BUY_AGAIN_LIMIT_DEFAULT),
});

/** One thing the group bought before, at its price now. */
export const BuyAgainItemSchema = z.object({
  /** The catalog product; null for a free line (added again by its name). */
  productId: z.string().nullable(),
  name: z.string(),
  imageUrl: z.string(),
  /** Currency units: the product's price now; a free line's, what the latest order paid for it. */
  price: z.number(),
  /** How many of the past orders had it. */
  times: z.number().int().min(1),
  /** When the latest of them was placed (ISO). */
  lastAt: z.string(),
});
export type BuyAgainItem = z.infer<typeof BuyAgainItemSchema>;

export const BuyAgainResponseSchema = z.object({ items: z.array(BuyAgainItemSchema) });
