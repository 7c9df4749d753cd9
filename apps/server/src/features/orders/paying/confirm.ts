/**
 * Confirming: a creditor settles what a member owes them, confirming the member's claim, paid in
 * cash, or written off (posting.ts says the rest).
 */
import { fromCents, orderNumber, type Order, type SettlementKind } from "@cartner/contract";
import { conflict, notFound } from "../../../lib/errors.ts";
import { formatMoney } from "../../../lib/money.ts";
import { writeSession } from "../../sessions/index.ts";
import { owingOf, pairsOfOrder, post, settlementOf, type Settlement } from "../../ledger/index.ts";
import { access, type Actor } from "../access.ts";
import type { OrderDeps } from "../deps.ts";
import { loadOrder, payersFor, viewOf, type LoadedOrder } from "../reading/view.ts";
import type { OrderRow, ShareRow } from "../rows.ts";
import { settledNotice } from "./notices.ts";
import { orderUpdated, postedCents } from "./posting.ts";
import { later } from "../../notifications/index.ts";

/**
 * Someone the caller may settle with on the order: a member with a share, or a payer (the payee
 * among them) with none, who may still owe another payer back what they were paid beyond their
 * part. Anyone else is not on the order's book: null.
 */
function counterparty(order: LoadedOrder, userId: string): Party | null {
  const share = order.shares.find((s) => s.userId === userId);
  if (share) return { userId, name: share.name };
  const payer = payersFor(order.row, order.payers).find((p) => p.userId === userId);
  return payer ? { userId, name: payer.name } : null;
}

/** Who is settled: their id and the name the order knows them by. */
type Party = Pick<ShareRow, "userId" | "name">;

/**
 * A creditor (the payee, or another payer) settles what someone owes them on the order:
 * confirmed, paid in cash or written off; only their own part. Whoever owes them may be settled,
 * a member with a share or another payer without one; someone not on the order is 404, someone
 * who owes the caller nothing there is told so (409).
 */
export async function confirm(
  deps: OrderDeps,
  orderId: string,
  actor: Actor,
  memberId: string,
  how: SettlementKind = "transfer",
): Promise<Order> {
  const order = await access(deps, orderId, actor.user._id, "order.confirm");
  const member = counterparty(order, memberId);
  if (!member) throw notFound("They have no share in this order and did not pay the shop for it.");
  const owing = order.pairs
    .map((p) => owingOf(p, memberId))
    .find((o) => o?.other === actor.user._id);
  if (!owing) throw conflict(`${member.name} owes you nothing on this order.`);
  if (how === "transfer" && owing.owes > 0 && owing.claimed === 0) {
    throw conflict(
      `${member.name} has not marked what they owe you as paid yet: record it as paid in cash or write it off instead.`,
    );
  }
  const settled = await settleShare(deps, order, actor, member, how);
  const built = viewOf((await loadOrder(deps.db, orderId))!);
  if (settled > 0) {
    const money = (amount: number) => formatMoney(amount, deps.currency);
    if (deps.notices)
      later(deps.notices, settledNotice(built, actor.user, memberId, how, settled, money));
  }
  return built;
}

/**
 * A creditor settles what `member` owes them on the order (settlementOf): "transfer" confirms
 * the member's claims, "cash" and "written_off" settle what is open. Answers the cents settled (0:
 * nothing changed).
 */
async function settleShare(
  deps: Pick<OrderDeps, "db" | "clock" | "events">,
  order: { row: OrderRow; shares: ShareRow[] },
  actor: Actor,
  member: Party,
  how: Settlement,
): Promise<number> {
  const { row } = order;
  const { result } = await writeSession(deps.db, deps, {
    sessionId: row.sessionId,
    userId: actor.user._id,
    // confirm() checked the caller is a creditor of the order.
    action: null,
    active: false,
    change: async ({ tx, now }) => {
      const pair = (await pairsOfOrder(tx, row.id)).find(
        (p) => owingOf(p, member.userId)?.other === actor.user._id,
      );
      const postings = pair ? settlementOf(row.id, pair, member.userId, how) : [];
      const cents = postedCents(postings);
      if (cents === 0) return { result: 0, version: "unchanged" };
      const details = {
        orderId: row.id,
        number: orderNumber(row.number),
        member: member.name,
        memberId: member.userId,
        amount: fromCents(cents),
        how,
      };
      return {
        result: cents,
        activity: { type: "order.confirmed", details },
        version: "unchanged",
        afterActivity: async ([seq]) => {
          const by = { id: actor.user._id, name: actor.user.name };
          await post(tx, { at: now, by, key: actor.key }, postings, seq ?? null);
        },
      };
    },
    events: orderUpdated(row, order.shares),
  });
  return result;
}
