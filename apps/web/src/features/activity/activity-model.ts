import type { Activity } from "@cartner/contract";
import { formatMoney } from "../../lib/format.ts";
import { SPLIT_MODE_TEXT } from "../../shared/split-text.ts";

export { ACTIVITY_KEEP } from "../../api/sessions.ts";

const str = (value: unknown): string => (typeof value === "string" ? value : "");
const num = (value: unknown): number => (typeof value === "number" ? value : 0);

function quantityOf(entry: Activity): string {
  const quantity = num(entry.quantity);
  return quantity > 1 ? `${quantity} × ` : "";
}

/** "(Ann's line)" when the actor changed someone else's line (a creator may). */
function lineOf(entry: Activity): string {
  const owner = str(entry.lineOf);
  return owner && owner !== entry.actor.name ? ` (${owner}'s line)` : "";
}

const FIELD_TEXT: Record<string, string> = {
  sessionName: "the name",
  sessionType: "the type",
  budget: "the budget",
  passcode: "the passcode",
  participants: "the group size",
  code: "the session code",
};

function listText(items: string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

function sessionUpdated(entry: Activity, you: boolean): string {
  if (entry.status === "ended") return "ended the session";
  if (typeof entry.ready === "boolean") {
    const is = you ? "are" : "is";
    return entry.ready ? `${is} done adding items` : `${is} adding items again`;
  }
  const changed = Array.isArray(entry.changed) ? entry.changed.map(String) : [];
  if (changed.includes("code")) return "made a new session code";
  if (changed.length === 1 && changed[0] === "sessionName" && str(entry.sessionName)) {
    return `renamed the session to “${str(entry.sessionName)}”`;
  }
  if (changed.length === 1 && changed[0] === "budget") {
    return typeof entry.budget === "number"
      ? `set the budget to ${formatMoney(entry.budget)}`
      : "removed the budget";
  }
  const fields = changed.map((field) => FIELD_TEXT[field] ?? field);
  return fields.length > 0 ? `changed ${listText(fields)}` : "changed the session";
}

/**
 * What the entry says after the actor's name: "removed Oat milk". `you` when the actor is the
 * reader, so the verb agrees with "You" ("You are done adding items", not "You is").
 */
export function activityAction(entry: Activity, you = false): string {
  switch (entry.type) {
    case "item.added":
      return `added ${quantityOf(entry)}${str(entry.product)}`;
    case "item.quantity":
      return `${num(entry.change) > 0 ? "raised" : "lowered"} ${str(entry.product)} to ${num(entry.quantity)}${lineOf(entry)}`;
    case "item.removed":
      return `removed ${str(entry.product)}${lineOf(entry)}`;
    case "item.restored":
      return `put back ${str(entry.product)}${lineOf(entry)}`;
    case "item.shared": {
      const names = Array.isArray(entry.with) ? entry.with.map(String) : [];
      return names.length > 0
        ? `shared ${str(entry.product)} with ${listText(names)}`
        : `stopped sharing ${str(entry.product)}`;
    }
    case "cart.cleared":
      return "cleared the cart";
    case "member.joined":
      return entry.via === "link"
        ? "joined with an invite link"
        : entry.via === "invite"
          ? "accepted an invite and joined"
          : "joined";
    case "member.left":
      return "left the session";
    case "member.removed":
      return `removed ${str(entry.member)} from the session`;
    case "member.role":
      return entry.role === "creator"
        ? `handed the session to ${str(entry.member)}`
        : `made ${str(entry.member)} a ${str(entry.role)}`;
    case "session.updated":
      return sessionUpdated(entry, you);
    case "split.policy": {
      const mode = SPLIT_MODE_TEXT[entry.mode as keyof typeof SPLIT_MODE_TEXT];
      return mode ? `set the split to “${mode.label}”` : "changed the split";
    }
    case "order.placed":
      return `checked out order ${str(entry.number)} (${formatMoney(num(entry.total))})`;
    case "order.paid":
      return `paid ${formatMoney(num(entry.amount))} for order ${str(entry.number)}`;
    case "order.confirmed":
      // How the payee settled it: a confirmed transfer (entries before `how` existed too).
      return entry.how === "cash"
        ? `marked ${str(entry.member)}'s share as paid in cash (order ${str(entry.number)})`
        : entry.how === "written_off"
          ? `wrote off ${str(entry.member)}'s share of order ${str(entry.number)}${entry.reason === "account_deleted" ? " (account deleted)" : ""}`
          : `confirmed ${str(entry.member)}'s payment for order ${str(entry.number)}`;
  }
}

/** "Ben removed Oat milk"; the reader's own entries say "You". */
export function describeActivity(entry: Activity, userId: string | null | undefined): string {
  // Nobody removed it: the line went with its adder's account.
  if (entry.type === "item.removed" && entry.reason === "account_deleted") {
    const owner = str(entry.lineOf) || entry.actor.name;
    return `${owner}'s line ${str(entry.product)} was removed (account deleted)`;
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
