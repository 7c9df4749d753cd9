/**
 * Balances: the open parts (open-parts.ts) netted per person and order (what deleting an account
 * lists), and per person across orders (GET /api/balances).
 */
import {
  BalancesResponseSchema,
  fromCents,
  orderNumber,
  type Balance,
  type ShareStatus,
} from "@cartner/contract";
import { sql, type SQL } from "drizzle-orm";
import type { EncodableBody } from "../../../lib/encoded-body.ts";
import { keptAnswer, keptNote } from "../../../lib/kept-answers.ts";
import { lightRows, type Db } from "../../../db/client.ts";
import type { OrderDeps } from "../deps.ts";
import { idsText, marksOf } from "../reading/kept.ts";
import {
  currentNames,
  namesNow,
  namesOfText,
  openParts,
  partsOfRefs,
  peopleOf,
  readerRefsNow,
  renamed,
  type OpenPart,
} from "./open-parts.ts";

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
  return unsettledOf(await openParts(db, userId), userId);
}

/** The parts the user is owed or owes, netted per person and order, newest first. */
function unsettledOf(parts: OpenPart[], userId: string): UnsettledRow[] {
  const byKey = new Map<string, UnsettledRow>();
  for (const p of parts) {
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
  deps: Pick<OrderDeps, "db" | "media">,
  userId: string,
): Promise<Balance[]> {
  return balancesFrom(deps, unsettledOf(await openParts(deps.db, userId), userId));
}

/** Balances' light query: the reader's marks and the current names of `people` (idsText). */
export const balancesLight = (userId: string, people: string): SQL =>
  sql`select ${marksOf(idsText([userId]))} as marks, ${currentNames(people)} as names`;

/**
 * GET /balances' answer, kept per reader (lib/kept-answers.ts) while one light query reads the
 * same: the reader's marks (reading/kept.ts: moved by every write of one of their orders, and by
 * being added to or taken off one) and the current names of the people the kept answer names. The
 * answer is made from the ids and versions of the reader's orders read after the marks, so it is
 * never older than they are. A part that names someone else makes the answer again, with their
 * names read then.
 */
export async function balancesAnswer(
  deps: Pick<OrderDeps, "db" | "light" | "media">,
  userId: string,
): Promise<EncodableBody> {
  const { db } = deps;
  const people = keptNote(db, "balances", userId) ?? "{}";
  const [found] = await lightRows<{ marks: string; names: string }>(
    deps,
    balancesLight(userId, people),
  );
  const { marks } = found!;
  return keptAnswer(db, "balances", userId, `${marks} ${found!.names}`, async () => {
    const parts = await partsOfRefs(db, await readerRefsNow(db, userId));
    const named = peopleOf(parts);
    const names = named === people ? found!.names : await namesNow(db, named);
    const balances = balancesFrom(deps, unsettledOf(renamed(parts, namesOfText(names)), userId));
    return {
      body: JSON.stringify(BalancesResponseSchema.encode({ balances })),
      made: `${marks} ${names}`,
      note: named,
    };
  });
}

function balancesFrom(deps: Pick<OrderDeps, "media">, rows: UnsettledRow[]): Balance[] {
  const byPerson = new Map<string, Balance & { cents: number }>();
  for (const r of rows) {
    const entry = byPerson.get(r.otherId) ?? {
      user: { _id: r.otherId, name: r.otherName, avatar: deps.media.userAvatar(r.otherId) },
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
