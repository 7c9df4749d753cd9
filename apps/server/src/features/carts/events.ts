import type { Published } from "../live/index.ts";

/**
 * The live events of a committed cart change: cart.updated, and session.updated too while a
 * member's ready mark is set (`marked`), since the change may have moved their share's total and
 * so cleared their mark.
 */
export function cartChanged(
  sessionId: string,
  cartId: string,
  version: number,
  marked: boolean,
): Published[] {
  const types = marked
    ? (["cart.updated", "session.updated"] as const)
    : (["cart.updated"] as const);
  return types.map((type) => ({ event: { type, sessionId, cartId, version }, members: sessionId }));
}
