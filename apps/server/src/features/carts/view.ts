import {
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

/** What cart_view() answers (the contract's CartViewSchema): everything a cart answer shows. */
export type { CartView };

/**
 * The cart's split by the one split function (the summary and, later, the order use it too),
 * with the session's policy, ties drawn by the cart's id (as the web draws them); every paying
 * member appears, at zero until they carry something.
 */
export function splitOf(view: CartView) {
  return splitShares(
    view.lines.map((l) => ({
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
  const products: CartLine[] = lines.map((l) => ({
    _id: l.id,
    productId: {
      _id: l.productId,
      name: l.productName,
      price: fromCents(l.unitPriceCents),
      imageUrl: media.productImage(l.slug, l.imageHash),
      ...(l.color ? { color: l.color } : {}),
    },
    quantity: l.quantity,
    addedBy: { _id: l.userId, name: l.userName },
    addedAt: new Date(l.addedAt).toISOString(),
    lineTotal: fromCents(l.unitPriceCents * l.quantity),
    sharedWith: l.sharedWith,
    staple: l.staple,
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
    },
    products,
    totalPrice: fromCents(lines.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0)),
    itemCount: lines.reduce((sum, l) => sum + l.quantity, 0),
    split: shares.map((share) => shareOf(share, view.members)),
    version: session.version,
    createdAt: new Date(cart.createdAt).toISOString(),
    updatedAt: new Date(cart.updatedAt).toISOString(),
  };
}

/** The session's summary: its members, the cart's lines, the shares of those who carry some. */
export function summaryOf(view: CartView, media: Media): SessionSummary {
  const { session, members, lines } = view;
  const { summary: totals, shares } = splitOf(view);
  return {
    sessionName: session.name,
    participants: members
      .filter((m) => m.role !== "pending")
      .map((m) => ({ _id: m.userId, name: m.name })),
    cartItems: lines.map((l) => ({
      product: {
        _id: l.productId,
        name: l.productName,
        price: fromCents(l.unitPriceCents),
        imageUrl: media.productImage(l.slug, l.imageHash),
      },
      quantity: l.quantity,
      addedBy: l.userName,
      addedById: l.userId,
    })),
    // Those who carry something (everyone's running total is on the cart).
    split: shares.filter((share) => share.total > 0).map((share) => shareOf(share, members)),
    subtotal: fromCents(totals.subtotal),
    fees: fromCents(totals.fees),
    tax: fromCents(totals.tax),
    total: fromCents(totals.total),
  };
}
