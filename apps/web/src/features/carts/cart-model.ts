import {
  can,
  QUANTITY_MAX,
  QUANTITY_MIN,
  fromCents,
  orderSummary,
  shareWithBudget,
  splitShares,
  toCents,
  type Cart,
  type CartLine,
  type Role,
  type Share,
  type SplitPolicy,
} from "@cartner/contract";

export const UNTITLED_SESSION = "Untitled Session";
export const UNKNOWN_CREATOR = "Unknown";

export function sessionNameOf(cart: Cart): string {
  const name = cart.sessionId?.sessionName?.trim();
  return name ? name : UNTITLED_SESSION;
}

/** 'Creator: You', or the creator's name, or 'Unknown'. */
export function creatorLabel(cart: Cart, userId: string | null | undefined): string {
  const session = cart.sessionId;
  const creatorId =
    session?.creator?._id ?? session?.invitedUsers?.find((m) => m.role === "creator")?.userId;
  if (creatorId && userId && creatorId === userId) return "You";
  const name =
    session?.creator?.name?.trim() ||
    session?.invitedUsers?.find((m) => m.role === "creator")?.name?.trim();
  return name || UNKNOWN_CREATOR;
}

/** One for the creator plus the other members (pending join requests are not members). */
export function participantCount(cart: Cart): number {
  const creatorId = cart.sessionId?.creator?._id;
  const others = (cart.sessionId?.invitedUsers ?? []).filter(
    (member) =>
      member.role !== "creator" && member.role !== "pending" && member.userId !== creatorId,
  );
  return 1 + others.length;
}

export function cartHeaderLine(cart: Cart, userId: string | null | undefined): string {
  return `Creator: ${creatorLabel(cart, userId)} · Participants: ${participantCount(cart)}`;
}

/** Creator: any line; participant: their own; viewer: none (the server enforces the same). */
export function canChangeLine(
  role: Role | null,
  line: CartLine,
  userId: string | null | undefined,
  sessionActive = true,
): boolean {
  if (!sessionActive || !userId) return false;
  // A line added offline has no id on the server yet: its changes wait until it has.
  if (line._id.startsWith(PENDING_LINE_PREFIX)) return false;
  if (can(role, "cart.changeAnyLine")) return true;
  return can(role, "cart.changeOwnLine") && line.addedBy?._id === userId;
}

export function canManageCart(role: Role | null, sessionActive = true): boolean {
  return sessionActive && can(role, "cart.clear");
}

export function isSessionActive(cart: Cart): boolean {
  return cart.status === "active" && cart.sessionId?.status !== "ended";
}

export function canDecrease(line: CartLine): boolean {
  return line.quantity > QUANTITY_MIN;
}

export function canIncrease(line: CartLine): boolean {
  return line.quantity < QUANTITY_MAX;
}

/** Newest updatedAt first (a copy); the cart queries sort with it. */
export { newestCartsFirst } from "../../api/carts.ts";

/** The cart the route names (by session or by cart id), if it is in the list. */
export function findRouteCart(
  carts: readonly Cart[],
  target: { sessionId?: string | undefined; cartId?: string | undefined },
): Cart | undefined {
  if (target.cartId) return carts.find((cart) => cart._id === target.cartId);
  if (target.sessionId) return carts.find((cart) => cart.sessionId?._id === target.sessionId);
  return undefined;
}

/** The order summary card (fees 1 %, tax 13 %), in currency units, from integer-cent arithmetic. */
export function cartOrderSummary(totalPrice: number) {
  const cents = orderSummary(toCents(totalPrice));
  return {
    subtotal: fromCents(cents.subtotal),
    fees: fromCents(cents.fees),
    tax: fromCents(cents.tax),
    total: fromCents(cents.total),
  };
}

/** Recomputes a cart's totals from its lines (for optimistic changes), in integer cents. */
export function withTotals(cart: Cart, products: CartLine[]): Cart {
  const sum = (lines: CartLine[]) => lines.reduce((c, line) => c + toCents(line.lineTotal), 0);
  // Lines waiting for approval are counted apart, as the server counts them.
  const counted = products.filter((line) => !line.pending);
  const waiting = products.filter((line) => line.pending);
  // Lines hidden from the reader (private) are in the total, not in the lines: kept as they are.
  const hiddenCents =
    cart.privateCount > 0
      ? toCents(cart.totalPrice) - sum(cart.products.filter((line) => !line.pending))
      : 0;
  const totalCents = sum(counted) + hiddenCents;
  return {
    ...cart,
    products,
    totalPrice: fromCents(totalCents),
    itemCount: counted.reduce((sum, line) => sum + line.quantity, 0),
    pendingTotal: fromCents(waiting.reduce((sum, line) => sum + toCents(line.lineTotal), 0)),
  };
}

/** The cart with one line's quantity moved by +1 or -1, kept within 1..99 (optimistic update). */
export function withQuantityChange(cart: Cart, lineId: string, change: 1 | -1): Cart {
  const products = cart.products.map((line) => {
    if (line._id !== lineId) return line;
    const quantity = Math.min(QUANTITY_MAX, Math.max(QUANTITY_MIN, line.quantity + change));
    return {
      ...line,
      quantity,
      lineTotal: fromCents(toCents(line.productId.price) * quantity),
    };
  });
  return withTotals(cart, products);
}

export function withoutLine(cart: Cart, lineId: string): Cart {
  return withTotals(
    cart,
    cart.products.filter((line) => line._id !== lineId),
  );
}

export function itemsLabel(count: number): string {
  return `${count} ${count === 1 ? "item" : "items"}`;
}

/**
 * A cart's total is the sum of its lines: the order summary adds fees and
 * tax, and every member's share carries its part of them. These captions say which is which.
 */

/** Line ids of lines added offline, before the server has given them one. */
export const PENDING_LINE_PREFIX = "pending:";

export const BEFORE_FEES_AND_TAX = "Before fees and tax";
export const SHARES_INCLUDE_FEES_AND_TAX = "Each share includes its part of the fees and tax.";

/**
 * Removing a line someone else added, or one shared with others, asks first: their share
 * changes. Removing one's own unshared line does not (Undo covers a slip).
 */
export function removalNeedsConfirm(line: CartLine, userId: string | null | undefined): boolean {
  return line.addedBy._id !== userId || line.sharedWith.some((u) => u._id !== userId);
}

/**
 * A summary item's line in the session's cart, for what the summary does not say (no longer
 * available, short of stock): a product's line by its product and adder, who have one line
 * together. A free line has neither to show.
 */
export function cartLineOf(
  lines: readonly CartLine[] | undefined,
  item: { product: { _id: string | null }; addedById: string },
): CartLine | undefined {
  if (!lines || item.product._id === null) return undefined;
  return lines.find(
    (line) => line.productId._id === item.product._id && line.addedBy._id === item.addedById,
  );
}

/** "Ben's Oat milk", or "your Oat milk". */
function whoseLine(line: CartLine, userId: string | null | undefined): string {
  return line.addedBy._id === userId
    ? `your ${line.productId.name}`
    : `${line.addedBy.name}'s ${line.productId.name}`;
}

/** The confirm before removing a line: "Remove Ben's Oat milk?" and whose it is. */
export function removalConfirmText(
  line: CartLine,
  userId: string | null | undefined,
): { title: string; description: string } {
  const own = line.addedBy._id === userId;
  const sharers = line.sharedWith
    .filter((u) => u._id !== line.addedBy._id)
    .map((u) => (u._id === userId ? "you" : u.name));
  const added = own ? "You added it" : `${line.addedBy.name} added it`;
  const shared = sharers.length > 0 ? `; it is shared with ${listText(sharers)}` : "";
  return {
    title: `Remove ${whoseLine(line, userId)}?`,
    description: `${added}${shared}. You can undo this for a few seconds after.`,
  };
}

/** What the undo toast says after a removal. */
export function removedText(line: CartLine, userId: string | null | undefined): string {
  return `Removed ${whoseLine(line, userId)}.`;
}

function listText(names: string[]): string {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/**
 * Every paying member's share of the cart as drawn (unconfirmed changes included), by the one
 * split function and the session's policy, ties drawn by the cart's id as the server draws them:
 * the shares the server will answer once the changes land, so that they add up to the totals
 * shown beside them.
 */
export function sharesOf(cart: Cart, policy: SplitPolicy): Share[] {
  const members = cart.sessionId.invitedUsers;
  const { shares } = splitShares(
    cart.products.map((line) => ({
      lineTotal: toCents(line.lineTotal),
      addedBy: line.addedBy._id,
      addedByName: line.addedBy.name,
      sharedWith: line.sharedWith.map((u) => u._id),
    })),
    members.map(({ userId, name, role }) => ({ userId, name, role })),
    policy,
    cart._id,
  );
  return shares.map((share) => {
    const budget = members.find((m) => m.userId === share.userId)?.budget ?? null;
    return shareWithBudget(share, budget === null ? null : toCents(budget));
  });
}

/** Under figures that include the user's changes not yet confirmed by the server. */
export function unsentNote(count: number): string {
  return `Includes ${count === 1 ? "1 change" : `${count} changes`} not yet sent.`;
}

/** Under shares that could not be worked out with those changes (the split policy is not known yet). */
export function withoutUnsentNote(count: number): string {
  return `Before ${count === 1 ? "1 change" : `${count} changes`} not yet sent.`;
}
