import type { Activity, AdjustmentKind, DroppedReason } from "@cartner/contract";
import { formatMoney } from "../../lib/format.ts";
import { SPLIT_MODE_TEXT } from "../../shared/split-text.ts";
import { formatDeadline } from "../../shared/deadline-text.ts";

export { ACTIVITY_KEEP } from "../../api/sessions.ts";

/** The entries of one type, their details typed by the contract. */
type Of<T extends Activity["type"]> = Extract<Activity, { type: T }>;

function quantityOf(entry: Of<"item.added">): string {
  return entry.quantity > 1 ? `${entry.quantity} × ` : "";
}

/** "(Ann's line)" when the actor changed someone else's line (a creator may). */
function lineOf(
  entry: Of<
    | "item.quantity"
    | "item.removed"
    | "item.restored"
    | "item.approved"
    | "item.declined"
    | "item.staple"
    | "item.edited"
  >,
): string {
  const owner = entry.lineOf;
  return owner && owner !== entry.actor.name ? ` (${owner}'s line)` : "";
}

const FIELD_TEXT: Record<string, string> = {
  sessionName: "the name",
  sessionType: "the type",
  budget: "the budget",
  passcode: "the passcode",
  participants: "the group size",
  code: "the session code",
  splitMode: "the split",
  fees: "the fees",
  checkoutBy: "who checks out",
  approvers: "the approvers",
};

function listText(items: string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

function sessionUpdated(entry: Of<"session.updated">, you: boolean): string {
  if ("status" in entry) return "ended the session";
  if ("ready" in entry) {
    const is = you ? "are" : "is";
    return entry.ready ? `${is} done adding items` : `${is} adding items again`;
  }
  // A member's budget names no session field: "changed the session".
  const changed: string[] = "changed" in entry ? entry.changed : [];
  if (changed.includes("code")) return "made a new session code";
  if ("changed" in entry && changed.length === 1) {
    if (changed[0] === "sessionName" && entry.sessionName) {
      return `renamed the session to “${entry.sessionName}”`;
    }
    if (changed[0] === "budget") {
      return typeof entry.budget === "number"
        ? `set the budget to ${formatMoney(entry.budget)}`
        : "removed the budget";
    }
  }
  const fields = changed.map((field) => FIELD_TEXT[field] ?? field);
  return fields.length > 0 ? `changed ${listText(fields)}` : "changed the session";
}

/** The fields of a line an edit names, in words. */
const LINE_FIELD_TEXT = {
  note: "the note",
  substitute: "the substitute",
  name: "the name",
  estimatedPrice: "the estimated price",
} as const;

/**
 * What the entry says after the actor's name: "removed Oat milk". `you` when the actor is the
 * reader, so the verb agrees with "You" ("You are done adding items", not "You is").
 */
export function activityAction(entry: Activity, you = false): string {
  switch (entry.type) {
    case "item.added":
      return `added ${quantityOf(entry)}${entry.product}${entry.pending ? ", waiting for approval" : ""}`;
    case "item.quantity":
      return `${entry.change > 0 ? "raised" : "lowered"} ${entry.product} to ${entry.quantity}${lineOf(entry)}${entry.pending ? ", waiting for approval" : ""}`;
    case "item.approved":
    case "item.declined":
      return `${entry.type === "item.approved" ? "approved" : "declined"} ${entry.product}${lineOf(entry)}${entry.message ? `: “${entry.message}”` : ""}`;
    case "item.removed":
      if (entry.reason !== "member_left") return `removed ${entry.product}${lineOf(entry)}`;
      return entry.lineOf === entry.actor.name
        ? `removed ${entry.product} on leaving`
        : `removed ${entry.product} (${entry.lineOf}'s line, as ${entry.lineOf} left)`;
    case "item.restored":
      return `put back ${entry.product}${lineOf(entry)}`;
    case "item.shared":
      return entry.with.length > 0
        ? `shared ${entry.product} with ${listText(entry.with)}`
        : `stopped sharing ${entry.product}`;
    case "item.given":
      return `${
        entry.lineOf === entry.actor.name
          ? `gave ${entry.product} to ${entry.to} on leaving`
          : `gave ${entry.lineOf}'s ${entry.product} to ${entry.to}, as ${entry.lineOf} left`
      }${entry.pending ? ", waiting for approval" : ""}`;
    case "cart.cleared":
      return "cleared the cart";
    case "member.joined":
      if (!("via" in entry)) return "joined";
      return entry.via === "link" ? "joined with an invite link" : "accepted an invite and joined";
    case "member.left":
      return "left the session";
    case "member.removed":
      return `removed ${entry.member} from the session`;
    case "member.role":
      return entry.role === "creator"
        ? `handed the session to ${entry.member}`
        : `made ${entry.member} a ${entry.role}`;
    case "session.updated":
      return sessionUpdated(entry, you);
    case "split.policy":
      return `set the split to “${SPLIT_MODE_TEXT[entry.mode].label}”`;
    case "order.placed":
      return `checked out order ${entry.number} (${formatMoney(entry.total)})${entry.automatic ? " automatically at the deadline" : ""}${
        entry.payers
          ? `, paid by ${listText(entry.payers.map((p) => `${p.name} ${formatMoney(p.amount)}`))}`
          : ""
      }`;
    case "order.paid":
      return `paid ${formatMoney(entry.amount)} for order ${entry.number}`;
    case "order.confirmed":
      // How the payee settled it: a confirmed transfer (entries before `how` existed too).
      return entry.how === "cash"
        ? `marked ${entry.member}'s share as paid in cash (order ${entry.number})`
        : entry.how === "written_off"
          ? `wrote off ${entry.member}'s share of order ${entry.number}${entry.reason === "account_deleted" ? " (account deleted)" : ""}`
          : `confirmed ${entry.member}'s payment for order ${entry.number}`;
    case "order.adjusted":
      return `changed order ${entry.number}${entry.line ? ` (${entry.line}: ${ADJUSTMENT_TEXT[entry.kind]})` : ` (${ADJUSTMENT_TEXT[entry.kind]})`}: ${formatMoney(entry.from)} → ${formatMoney(entry.to)}`;
    case "order.disputed":
      return `disputed a change to order ${entry.number}: “${entry.comment}”`;
    case "order.revealed":
      return `showed ${entry.count === 1 ? "the private item" : `${entry.count} private items`} of order ${entry.number} to everyone`;
    case "order.payers":
      return `said who paid order ${entry.number}: ${listText(
        entry.payers.map((p) => `${p.name} ${formatMoney(p.amount)}`),
      )}`;
    case "order.transfer":
      // Negative: the transfer went the other way on this order, cancelling what `to` owed.
      return entry.amount >= 0
        ? `paid ${entry.to} ${formatMoney(entry.amount)} towards order ${entry.number}`
        : `recorded a transfer that cancels the ${formatMoney(-entry.amount)} ${entry.to} owed them on order ${entry.number}`;
    case "item.staple":
      return entry.staple
        ? `kept ${entry.product} for next time${lineOf(entry)}`
        : `stopped keeping ${entry.product} for next time${lineOf(entry)}`;
    case "item.edited":
      return `changed ${listText(entry.fields.map((f) => LINE_FIELD_TEXT[f]))} of ${entry.product}${lineOf(entry)}`;
    case "series.updated":
      return "ended" in entry ? "ended the series" : "made the session repeat";
    case "series.started":
      return entry.dropped.length === 0
        ? "started this session from the last one, with its staples"
        : `started this session from the last one; not carried: ${listText(
            entry.dropped.map((d) => `${d.name} (${DROPPED_TEXT[d.reason]})`),
          )}`;
    case "series.continued":
      return "started the next session of the series";
    // Times in the reader's own zone (docs/decisions/018-time-zones.md).
    case "deadline.set":
      return entry.previousClosesAt
        ? `moved the deadline to ${formatDeadline(entry.closesAt)}`
        : `set the deadline: the cart closes ${formatDeadline(entry.closesAt)}`;
    case "deadline.cleared":
      return "removed the deadline";
    case "deadline.reopened":
      return `reopened the cart until ${formatDeadline(entry.closesAt)}`;
    case "deadline.locked":
      return `(the deadline): the cart closed at ${formatDeadline(entry.closesAt)}`;
    case "deadline.checkout_skipped":
      return entry.reason === "private_lines"
        ? "(the deadline): the cart held private items, so nothing was checked out"
        : "(the deadline): the cart was empty, so nothing was checked out";
  }
}

/** An adjustment's kind, as the log and the order page word it. */
export const ADJUSTMENT_TEXT: Record<AdjustmentKind, string> = {
  missing: "not delivered",
  substituted: "substituted",
  quantity: "quantity changed",
  price: "price changed",
  refund: "refunded",
  order_fee: "order fee or discount",
};

const DROPPED_TEXT: Record<DroppedReason, string> = {
  missing: "no longer sold",
  out_of_stock: "out of stock",
  adder_gone: "its adder left",
};

/** "Ben removed Oat milk"; the reader's own entries say "You". */
export function describeActivity(entry: Activity, userId: string | null | undefined): string {
  // Nobody removed it: the line went with its adder's account.
  if (entry.type === "item.removed" && entry.reason === "account_deleted") {
    const owner = entry.lineOf || entry.actor.name;
    return `${owner}'s line ${entry.product} was removed (account deleted)`;
  }
  // Nobody did these: the deadline came.
  if (entry.type === "deadline.locked") {
    return `The cart closed at the deadline, ${formatDeadline(entry.closesAt)}`;
  }
  if (entry.type === "deadline.checkout_skipped") {
    return entry.reason === "private_lines"
      ? "The cart held private items at the deadline: nothing was checked out"
      : "The cart was empty at the deadline: nothing was checked out";
  }
  const you = Boolean(userId) && entry.actor._id === userId;
  return `${you ? "You" : entry.actor.name} ${activityAction(entry, you)}`;
}

/** "just now", "2 min ago", "3 h ago", "yesterday", "4 days ago", then the date. */
export function timeAgo(at: string, now: number = Date.now()): string {
  const then = new Date(at).getTime();
  if (Number.isNaN(then)) return "";
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 45) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days === 1) return "yesterday";
  if (days < 7) return `${days} days ago`;
  return new Date(then).toLocaleDateString(undefined, { dateStyle: "medium" });
}

export { appendActivity } from "../../api/sessions.ts";
