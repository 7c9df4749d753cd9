/**
 * The parts of shares still open between people (openOfShare): a share not settled owes each
 * payer its part of its adjusted total (owedToPayers) less what was paid towards it
 * (openToPayers: paid_cents, of which settled_to went to each payer by recorded transfer); a share
 * paid beyond its adjusted total is owed the difference back by the payers (a credit, a negative
 * part). Balances, the settle plan, transfers and an account's deletion all read them.
 */
import { fromCents, orderNumber, type Balance, type ShareStatus } from "@cartner/contract";
import { and, inArray, sql, type SQL } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { orderPayers, orderShares, orders, users } from "../../db/schema.ts";
import {
  openOfShare,
  partsOf,
  payersFor,
  payersOf,
  sharesOf,
  type OrderRow,
  type ShareRow,
} from "./order-view.ts";

/**
 * One share's open part of one order with one payer: positive, the debtor (the share's member)
 * owes the payer; negative, a credit the payer owes the debtor back.
 */
export interface OpenPart {
  orderId: string;
  sessionId: string;
  number: number;
  sessionName: string;
  placedAt: Date;
  debtorId: string;
  debtorName: string;
  payerId: string;
  payerName: string;
  cents: number;
  /** The debtor's share's status (unpaid or paid; any, for a credit). */
  status: ShareStatus;
}

/** Who pays whom how much (cents, positive) to settle an open part. */
export const flowOf = (p: OpenPart) =>
  p.cents >= 0
    ? { fromId: p.debtorId, toId: p.payerId, cents: p.cents }
    : { fromId: p.payerId, toId: p.debtorId, cents: -p.cents };

/** The order concerns the user: payee, a member with a share, or a payer. */
const concerns = (userId: string): SQL => sql`(${orders.payeeId} = ${userId}
  or exists (select 1 from ${orderShares} where ${orderShares.orderId} = ${orders.id}
    and ${orderShares.userId} = ${userId})
  or exists (select 1 from ${orderPayers} where ${orderPayers.orderId} = ${orders.id}
    and ${orderPayers.userId} = ${userId}))`;

/**
 * Something may be open on the order: a share not confirmed yet, or adjustments (only they leave
 * a credit on a settled share).
 */
const stillOpen = sql`(jsonb_array_length(${orders.adjustments}) > 0
  or exists (select 1 from ${orderShares} where ${orderShares.orderId} = ${orders.id}
  and ${orderShares.status} <> 'confirmed'))`;

/**
 * The open parts of every order the user is part of (and, with `withId`, that person too), oldest
 * order first. People are named as they are now, a deleted one as the order recorded them.
 */
export async function openParts(db: Db | Tx, userId: string, withId?: string): Promise<OpenPart[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(and(stillOpen, concerns(userId), withId ? concerns(withId) : undefined))
    .orderBy(orders.placedAt, orders.number);
  const ids = rows.map((r) => r.id);
  const [shares, payers] = await Promise.all([sharesOf(db, ids), payersOf(db, ids)]);
  const people = [...new Set([...shares.map((s) => s.userId), ...payers.map((p) => p.userId)])];
  const current = new Map(
    people.length === 0
      ? []
      : (
          await db
            .select({ id: users.id, name: users.name, deletedAt: users.deletedAt })
            .from(users)
            .where(inArray(users.id, people))
        ).map((u) => [u.id, u.deletedAt ? null : u.name]),
  );
  return rows.flatMap((row) => partsOfOrder(row, shares, payers, current));
}

/** One order's open parts (a helper of openParts, also used under a transfer's lock). */
export function partsOfOrder(
  row: OrderRow,
  shares: ShareRow[],
  payers: Awaited<ReturnType<typeof payersOf>>,
  current: Map<string, string | null> = new Map(),
): OpenPart[] {
  const own = shares.filter((s) => s.orderId === row.id);
  const payerName = (id: string) =>
    current.get(id) ??
    payers.find((p) => p.orderId === row.id && p.userId === id)?.name ??
    (id === row.payeeId ? row.payeeName : (own.find((s) => s.userId === id)?.name ?? ""));
  const parts = partsOf(row, own, payers);
  const payerIds = payersFor(row, payers).map((p) => p.userId);
  return own.flatMap((share) =>
    openOfShare(share, parts, payerIds).map((part) => ({
      orderId: row.id,
      sessionId: row.sessionId,
      number: row.number,
      sessionName: row.sessionName,
      placedAt: new Date(row.placedAt),
      debtorId: share.userId,
      debtorName: current.get(share.userId) ?? share.name,
      payerId: part.payer,
      payerName: payerName(part.payer),
      cents: part.cents,
      status: share.status,
    })),
  );
}

/**
 * What `debtorId` still owes `payerId` on one order (0 when settled or never owed; negative when
 * the payer owes a credit back), in cents.
 */
export async function openOwed(
  db: Db,
  orderId: string,
  debtorId: string,
  payerId: string,
): Promise<number> {
  const [row] = await db
    .select()
    .from(orders)
    .where(sql`${orders.id} = ${orderId}`);
  if (!row) return 0;
  const parts = partsOfOrder(row, await sharesOf(db, [orderId]), await payersOf(db, [orderId]));
  return parts
    .filter((p) => p.debtorId === debtorId && p.payerId === payerId)
    .reduce((sum, p) => sum + p.cents, 0);
}

/** A share not yet confirmed between the user and someone else, from the user's side. */
export interface UnsettledRow {
  otherId: string;
  otherName: string;
  orderId: string;
  number: number;
  sessionName: string;
  placedAt: string | Date;
  /** Positive: they owe the user (the user is a payer); negative: the user owes them. */
  cents: number;
  status: ShareStatus;
  /** Only credits (paid beyond an adjusted share) behind it: owed back. */
  credit: boolean;
}

/**
 * Every open part the user is owed (as a payer) or owes, netted per person and order, newest
 * first: what balances add up, and what deleting an account lists.
 */
export async function unsettledShares(db: Db, userId: string): Promise<UnsettledRow[]> {
  const byKey = new Map<string, UnsettledRow>();
  for (const p of await openParts(db, userId)) {
    const mine = p.debtorId === userId ? -1 : p.payerId === userId ? 1 : 0;
    if (mine === 0) continue;
    const otherId = mine < 0 ? p.payerId : p.debtorId;
    const key = `${otherId}/${p.orderId}`;
    const entry = byKey.get(key) ?? {
      otherId,
      otherName: mine < 0 ? p.payerName : p.debtorName,
      orderId: p.orderId,
      number: p.number,
      sessionName: p.sessionName,
      placedAt: p.placedAt,
      cents: 0,
      status: p.status,
      credit: true,
    };
    entry.cents += mine * p.cents;
    // The status a debt's share has, when a debt is behind it.
    if (p.cents > 0 && entry.credit) entry.status = p.status;
    entry.credit &&= p.cents < 0;
    byKey.set(key, entry);
  }
  return [...byKey.values()]
    .filter((r) => r.cents !== 0)
    .sort(
      (a, b) =>
        new Date(b.placedAt).getTime() - new Date(a.placedAt).getTime() || b.number - a.number,
    );
}

/**
 * Your net with each person over every open part, across orders: what others owe you as a
 * payer, less what you owe payers. Positive = they owe you.
 */
export async function balancesOf(
  db: Db,
  userId: string,
  avatarOf: (userId: string) => string,
): Promise<Balance[]> {
  const rows = await unsettledShares(db, userId);
  const byPerson = new Map<string, Balance & { cents: number }>();
  for (const r of rows) {
    const entry = byPerson.get(r.otherId) ?? {
      user: { _id: r.otherId, name: r.otherName, avatar: avatarOf(r.otherId) },
      amount: 0,
      cents: 0,
      orders: [],
    };
    entry.cents += r.cents;
    entry.orders.push({
      _id: r.orderId,
      number: orderNumber(r.number),
      sessionName: r.sessionName,
      placedAt: new Date(r.placedAt).toISOString(),
      amount: fromCents(r.cents),
      status: r.status,
      credit: r.credit,
    });
    byPerson.set(r.otherId, entry);
  }
  return [...byPerson.values()]
    .map(({ cents, ...b }) => ({ ...b, amount: fromCents(cents) }))
    .sort(
      (a, b) => Math.abs(b.amount) - Math.abs(a.amount) || a.user.name.localeCompare(b.user.name),
    );
}
