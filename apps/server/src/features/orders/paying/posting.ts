/**
 * Paying, recorded only (there is no card payment), in the ledger (features/ledger): a member
 * marks paid (mark-paid.ts: a claim to each person they owe), a creditor confirms it or settles
 * what the member owes them another way (confirm.ts: confirmed, cash, written off). Each is a
 * session write of the order's session (write.ts): under its lock, the book read and appended to;
 * an activity entry when something changed, the version kept (an ended session's members' views
 * do not change), `order.updated` to the order's people. Doing it a second time changes nothing.
 * What both share is here.
 */
import type { Posting } from "../../ledger/index.ts";
import { peopleOf, type OrderRow, type ShareRow } from "../rows.ts";

/** After commit, when something was written: the order's people refetch it. */
export const orderUpdated = (row: OrderRow, shares: ShareRow[]) => (cents: number) =>
  cents > 0
    ? [
        {
          event: { type: "order.updated" as const, sessionId: row.sessionId, orderId: row.id },
          users: peopleOf(row, shares),
        },
      ]
    : [];

/** The cents an event's postings move; a reversal voiding a waiting claim is not among them. */
export const postedCents = (postings: Posting[]) =>
  postings.filter((p) => !p.refId || p.kind === "confirmed").reduce((a, p) => a + p.cents, 0);
