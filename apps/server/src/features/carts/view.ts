import {
  can,
  DEFAULT_SPLIT_POLICY,
  deadlineAt,
  fromCents,
  shareWithBudget,
  splitShares,
  type Cart,
  type CartLine,
  type CartView,
  type Member,
  type SessionSummary,
  type ShareCents,
} from "@cartner/contract";
import type { Media } from "../../lib/media.ts";
import { visibleMembers } from "../../lib/permissions.ts";
import { readyMark } from "../../lib/ready-mark.ts";
import { allotStock } from "./stock.ts";

/** What cart_view() answers (the contract's CartViewSchema): everything a cart answer shows. */
export type { CartView };

/**
 * The cart's split by the one split function (the summary and, later, the order use it too),
 * with the session's policy, ties drawn by the cart's id (as the web draws them); every paying
 * member appears, at zero until they carry something.
 */
export function splitOf(view: CartView) {
  return splitShares(
    countedLines(view).map((l) => ({
      lineTotal: l.unitPriceCents * l.quantity,
      addedBy: l.userId,
      addedByName: l.userName,
      sharedWith: l.sharedWith.map((u) => u._id),
    })),
    view.members,
    view.session.splitPolicy ?? DEFAULT_SPLIT_POLICY,
    view.cart.id,
  );
}

/**
 * The lines an open cart counts in its totals and split: those whose product is still on sale
 * (checkout leaves the others out) and that do not wait for approval. An ended cart's lines are
 * what was bought: all of them.
 */
export function countedLines(view: CartView): CartView["lines"] {
  if (view.cart.status !== "active") return view.lines;
  return view.lines.some((l) => !l.available || l.pendingAt !== null)
    ? view.lines.filter((l) => l.available && l.pendingAt === null)
    : view.lines;
}

/** The lines of an open cart that wait for approval (kept out of its totals and split). */
export function pendingLines(view: CartView): CartView["lines"] {
  if (view.cart.status !== "active") return [];
  return view.lines.filter((l) => l.pendingAt !== null);
}

/**
 * An open cart's flags on each line, as `readerId` sees them: a price changed since last seen,
 * units over the stock. The stock goes round the lines the reader sees only: a line hidden from
 * them takes none of it in their answer (its units would show through another line's shortage).
 */
function lineFlags(view: CartView, readerId: string) {
  const open = view.cart.status === "active";
  const { seen } = linesSeenBy(view.lines, readerId);
  // Free lines have no stock to share; a line waiting for approval holds its units too.
  const onSale = open ? seen.filter((l) => l.available) : seen;
  const stocked = onSale.flatMap((l) =>
    l.productId === null ? [] : [{ id: l.id, productId: l.productId, quantity: l.quantity }],
  );
  const taken = open ? allotStock(stocked, (id) => stockOf(view, id)) : undefined;
  return (l: CartView["lines"][number]) => ({
    unitPrice: fromCents(l.unitPriceCents),
    addedPrice: fromCents(l.addedPriceCents),
    seenPrice: fromCents(l.seenPriceCents),
    priceChanged: open && l.seenPriceCents !== l.unitPriceCents,
    available: !open || l.available,
    stockShort:
      taken && l.available && l.productId !== null ? l.quantity - (taken.get(l.id) ?? 0) : 0,
  });
}

function stockOf(view: CartView, productId: string): number {
  return view.lines.find((l) => l.productId === productId)?.stock ?? 0;
}

/** A line's product as clients read it; a free line's is its name, its estimate, a placeholder. */
export function productOf(l: CartView["lines"][number], media: Media) {
  return {
    _id: l.productId,
    name: l.productName,
    price: fromCents(l.unitPriceCents),
    imageUrl:
      l.slug && l.imageHash
        ? media.productImage(l.slug, l.imageHash, l.imageType ?? "svg")
        : media.freeLineImage(),
  };
}

/**
 * The lines `readerId` sees: all but those hidden from them (private lines), and how many those
 * are. A cart without private lines is answered as it is (no copy).
 */
export function linesSeenBy(
  lines: CartView["lines"],
  readerId: string,
): { seen: CartView["lines"]; privateCount: number } {
  if (!lines.some((l) => l.hiddenFrom.includes(readerId))) return { seen: lines, privateCount: 0 };
  const seen = lines.filter((l) => !l.hiddenFrom.includes(readerId));
  return { seen, privateCount: lines.length - seen.length };
}

/**
 * Whom a line is hidden from, as `readerId` sees it: its adder and whoever sees every private
 * line (the creator) see the list; everyone else gets [] (they may not know whom it is for).
 */
function hiddenFromAsSeenBy(l: CartView["lines"][number], readerId: string, sees: boolean) {
  return sees || l.userId === readerId ? l.hiddenFrom : [];
}

/** A member's share against their own budget. */
function shareOf(s: ShareCents, members: CartView["members"]) {
  return shareWithBudget(s, members.find((m) => m.userId === s.userId)?.budgetCents ?? null);
}

/**
 * The cart answer, as `viewerId` sees it (pending requesters as the permissions table says), at
 * `now` by the app's clock (whether its deadline has passed).
 */
export function cartOf(view: CartView, viewerId: string, media: Media, now: Date): Cart {
  const { cart, session, lines } = view;
  const { shares } = splitOf(view);
  const members: Member[] = visibleMembers(view.members, viewerId).map(
    ({ budgetCents, readyTotalCents, ready, ...m }) => ({
      ...m,
      avatar: media.userAvatar(m.userId),
      budget: budgetCents === null ? null : fromCents(budgetCents),
      ...readyMark({ ...m, ready, readyTotalCents }, shares),
    }),
  );
  const creator = members.find((m) => m.role === "creator");
  const counted = countedLines(view);
  const flags = lineFlags(view, viewerId);
  const { seen, privateCount } = linesSeenBy(lines, viewerId);
  const role = view.members.find((m) => m.userId === viewerId)?.role;
  const seesPrivate = can(role, "cart.seePrivate");
  const products: CartLine[] = seen.map((l) => ({
    _id: l.id,
    productId: { ...productOf(l, media), ...(l.color ? { color: l.color } : {}) },
    quantity: l.quantity,
    addedBy: { _id: l.userId, name: l.userName },
    addedAt: new Date(l.addedAt).toISOString(),
    lineTotal: fromCents(l.unitPriceCents * l.quantity),
    sharedWith: l.sharedWith,
    staple: l.staple,
    ...flags(l),
    free: l.productId === null,
    estimated: l.productId === null,
    note: l.note,
    substitute: l.substitute,
    pending:
      l.pendingAt === null
        ? null
        : { requestedAt: new Date(l.pendingAt).toISOString(), message: null },
    hiddenFrom: hiddenFromAsSeenBy(l, viewerId, seesPrivate),
  }));
  return {
    _id: cart.id,
    status: cart.status,
    sessionId: {
      _id: session.id,
      sessionName: session.name,
      status: session.status,
      creator: {
        _id: session.creatorId,
        name: creator?.name ?? "Unknown",
        avatar: media.userAvatar(session.creatorId),
      },
      invitedUsers: members,
      deadline: deadlineAt(session.deadline, now),
      approvers: session.approvers,
    },
    products,
    totalPrice: fromCents(counted.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0)),
    // The units the reader sees; the private lines are a count of lines, their cost in the totals.
    itemCount: linesSeenBy(counted, viewerId).seen.reduce((sum, l) => sum + l.quantity, 0),
    privateCount,
    // Waiting lines the reader sees (a private one is not named to whom it is hidden from).
    pendingTotal: fromCents(
      linesSeenBy(pendingLines(view), viewerId).seen.reduce(
        (sum, l) => sum + l.unitPriceCents * l.quantity,
        0,
      ),
    ),
    split: shares.map((share) => shareOf(share, view.members)),
    version: session.version,
    createdAt: new Date(cart.createdAt).toISOString(),
    updatedAt: new Date(cart.updatedAt).toISOString(),
  };
}

/**
 * The session's summary as `readerId` sees it: its members, the cart's lines (not those hidden
 * from the reader, counted in `privateCount`), the shares of those who carry some.
 */
export function summaryOf(view: CartView, readerId: string, media: Media): SessionSummary {
  const { session, members } = view;
  const { summary: totals, shares } = splitOf(view);
  // What would be bought: lines waiting for approval are not, until approved. `privateCount`
  // counts the lines bought that are hidden from the reader: a waiting one is in no figure here.
  const waiting = new Set(pendingLines(view).map((l) => l.id));
  const { seen: lines, privateCount } = linesSeenBy(
    view.lines.filter((l) => !waiting.has(l.id)),
    readerId,
  );
  return {
    sessionName: session.name,
    participants: members
      .filter((m) => m.role !== "pending")
      .map((m) => ({ _id: m.userId, name: m.name })),
    cartItems: lines.map((l) => ({
      product: productOf(l, media),
      quantity: l.quantity,
      addedBy: l.userName,
      addedById: l.userId,
      estimated: l.productId === null,
      note: l.note,
      substitute: l.substitute,
    })),
    // Those who carry something (everyone's running total is on the cart).
    split: shares.filter((share) => share.total > 0).map((share) => shareOf(share, members)),
    privateCount,
    subtotal: fromCents(totals.subtotal),
    fees: fromCents(totals.fees),
    tax: fromCents(totals.tax),
    total: fromCents(totals.total),
  };
}
