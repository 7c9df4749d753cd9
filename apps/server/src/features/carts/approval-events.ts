/**
 * The live events and notifications of lines waiting for approval ("ask first" budgets): to the
 * line's adder, the session's creator and its approvers. Apart from line-approval.ts so that the
 * line writes (line-writes.ts), which mark a line waiting, tell of it without a cycle.
 */
import type { CartView, User } from "@cartner/contract";
import type { Published } from "../live/index.ts";
import { later } from "../notifications/index.ts";
import type { CartDeps } from "./deps.ts";

/**
 * Who hears of a waiting line: its adder, the creator and the approvers (each once), but not an
 * approver the line is hidden from (for them it does not exist; the creator always sees it).
 */
export function approvalAudience(
  session: { creatorId: string; approvers: readonly string[] },
  adderId: string,
  hiddenFrom: readonly string[] = [],
): string[] {
  const audience = new Set([adderId, session.creatorId, ...session.approvers]);
  return [...audience].filter((id) => !hiddenFrom.includes(id));
}

/** The live event of a line's approval state, to its audience. */
export function lineEvent(
  type: "line.pending" | "line.approved" | "line.declined",
  target: { sessionId: string; cartId: string; lineId: string; version: number },
  users: string[],
  message?: string,
): Published {
  const { sessionId, cartId, lineId, version } = target;
  return {
    event: { type, sessionId, cartId, lineId, version, ...(message ? { message } : {}) },
    users,
  };
}

/**
 * After a cart write answered "pending": the adder, the creator and the approvers hear of the
 * line live, and the creator and approvers get a notification asking them to decide, which
 * names the cart and the line (so it can be decided from the notification itself).
 */
export function tellPending(
  deps: Pick<CartDeps, "events" | "notices">,
  view: CartView,
  adder: User,
  line: CartView["lines"][number],
): void {
  const { session } = view;
  const audience = approvalAudience(session, adder._id, line.hiddenFrom);
  const target = { sessionId: session.id, cartId: view.cart.id, lineId: line.id };
  deps.events.publish(lineEvent("line.pending", { ...target, version: session.version }, audience));
  if (!deps.notices) return;
  later(deps.notices, {
    kind: "changes",
    userIds: audience.filter((id) => id !== adder._id),
    actorId: adder._id,
    // Not with the session's id: its "changes" would fold this into the cart's running notice.
    title: `${adder.name} asks to add ${line.productName}`,
    body: `${adder.name} asks to add ${line.productName} (${line.quantity}) to ${session.name}, over their budget: approve or decline it.`,
    url: `/cart/${session.id}`,
    approval: { cartId: view.cart.id, lineId: line.id },
  });
}
