/**
 * What is still open between people, from the ledger (features/ledger): each pair of people on
 * an order whose posted entries do not net to zero, positive when the debtor owes, negative when
 * the creditor owes a credit back. Balances, the settle plan, transfers, pay-info and an
 * account's deletion all read them here.
 */
import type { ShareStatus } from "@cartner/contract";
import { inArray, sql, type SQL } from "drizzle-orm";
import { executeRows, type Db, type Tx } from "../../../db/client.ts";
import { orderPayers, orderShares, orders, users } from "../../../db/schema.ts";
import { bookJson, pairsOfJson, pairsOfOrders, shareBook, type Pair } from "../../ledger/index.ts";
import { idsText, partsOf, refsOfText } from "../reading/kept.ts";
import { payersFor } from "../reading/view.ts";
import type { OrderRow, PayerRow } from "../rows.ts";

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

/**
 * The orders that concern the person: payee, a member with a share, or a payer (ids only: a set
 * each index finds). `userId`: an id, or a column of the query around it.
 */
const concerning = (userId: string | SQL): SQL => sql`(select s.order_id from ${orderShares} s
    where s.user_id = ${userId}
  union select o.id from ${orders} o where o.payee_id = ${userId}
  union select p.order_id from ${orderPayers} p where p.user_id = ${userId})`;

/** The orders of the user's open parts (with `withId`: those that concern that person too). */
const ofReader = (userId: string, withId?: string): SQL =>
  withId
    ? sql`(${orders.id} in ${concerning(userId)} and ${orders.id} in ${concerning(withId)})`
    : sql`${orders.id} in ${concerning(userId)}`;

/**
 * The ids and versions of the orders of the user's open parts (with `withId`: those that concern
 * that person too), oldest first, as one text (refsOfText reads it): a scalar subquery.
 */
export const readerRefs = (userId: string, withId?: string): SQL =>
  sql`(select string_agg(${orders.id}::text || ':' || ${orders.version}, ','
      order by ${orders.placedAt}, ${orders.number}) from ${orders}
    where ${ofReader(userId, withId)})`;

/** readerRefs, read now (partsOfRefs takes them). */
export async function readerRefsNow(db: Db | Tx, userId: string, withId?: string) {
  const [found] = await executeRows<{ refs: string | null }>(
    db,
    sql`select ${readerRefs(userId, withId)} as refs`,
  );
  return found?.refs ?? "";
}

/** The people named in these parts, as a PostgreSQL array literal (idsText). */
export const peopleOf = (parts: OpenPart[]): string =>
  idsText(parts.flatMap((p) => [p.debtorId, p.payerId]));

/**
 * The current names of these people (an array literal, peopleOf) but the deleted, as one text
 * (namesOfText reads it): a scalar subquery.
 */
export const currentNames = (people: string): SQL =>
  sql`(select coalesce(json_agg(json_build_array(u.id, u.name) order by u.id)::text, '[]')
    from ${users} u where u.id = any(${people}::uuid[]) and u.deleted_at is null)`;

export const namesOfText = (text: string): Map<string, string> =>
  new Map(JSON.parse(text) as Array<[string, string]>);

/** The current names of the people in these parts, as one text (currentNames). */
export async function namesNow(db: Db | Tx, people: string): Promise<string> {
  if (people === "{}") return "[]";
  const [found] = await executeRows<{ names: string }>(
    db,
    sql`select ${currentNames(people)} as names`,
  );
  return found!.names;
}

/** The open parts of these orders (their ids and versions as readerRefs reads them). */
export async function partsOfRefs(db: Db | Tx, refs: string | null | undefined) {
  return (await partsOf(db, refsOfText(refs), (ids) => recordedParts(db, ids))).flat();
}

/** The parts with people named as they are now (`names`), a deleted one as the order recorded. */
export const renamed = (parts: OpenPart[], names: Map<string, string>): OpenPart[] =>
  // Kept parts are shared: renamed as copies.
  parts.map((p) => ({
    ...p,
    debtorName: names.get(p.debtorId) ?? p.debtorName,
    payerName: names.get(p.payerId) ?? p.payerName,
  }));

/**
 * The open parts of every order the user is part of (and, with `withId`, that person too), oldest
 * order first. One light query reads the orders' ids and versions (as one text: one row to read,
 * however long the history); each order's open parts are the ones kept at that version
 * (reading/kept.ts), else made from its rows and book and kept: a long history's settled orders
 * cost a lookup each, and nothing is read twice. People are named as they are now (one query for
 * those in open parts), a deleted one as the order recorded them.
 */
export async function openParts(
  db: Db | Tx,
  userId: string,
  withId?: string,
  /** false: people as the orders recorded them (for amounts only; no query for names). */
  named = true,
): Promise<OpenPart[]> {
  const parts = await partsOfRefs(db, await readerRefsNow(db, userId, withId));
  const people = peopleOf(parts);
  if (!named || people === "{}") return parts;
  return renamed(parts, namesOfText(await namesNow(db, people)));
}

/**
 * For each pair of people (as a JSON text, pairsText), the orders that concern both but for the
 * orders of `openParts(db, userId, withId)`, which the caller holds, as one text of
 * `pair:id:version` (a scalar subquery; partsBeyond reads it). In a group that shops together it
 * finds none.
 */
export function beyondRefs(pairs: string, userId: string, withId?: string): SQL {
  if (pairs === "[]") return sql`''`;
  // The orders of each person of the pairs less the caller's (each person's read once, from
  // their indexes), then per pair those of both.
  return sql`(with pair as (
      select * from json_to_recordset(${pairs}::json) as pair(i int, a uuid, b uuid)),
    mine as materialized (select ${orders.id} as id from ${orders} where ${ofReader(userId, withId)}),
    theirs as (
      select s.order_id as id, s.user_id as who from ${orderShares} s
        where s.user_id in (select a from pair union select b from pair)
      union select o.id, o.payee_id from ${orders} o
        where o.payee_id in (select a from pair union select b from pair)
      union select p.order_id, p.user_id from ${orderPayers} p
        where p.user_id in (select a from pair union select b from pair)),
    beyond as (select * from theirs where id not in (select id from mine))
    select coalesce(string_agg(pair.i || ':' || o.id::text || ':' || o.version, ','
        order by pair.i, o.id), '')
    from pair join beyond x on x.who = pair.a join beyond y on y.id = x.id and y.who = pair.b
    join ${orders} o on o.id = x.id)`;
}

/** The pairs as beyondRefs reads them. */
export const pairsText = (pairs: Array<[string, string]>): string =>
  JSON.stringify(pairs.map(([a, b], i) => ({ i, a, b })));

/**
 * For each pair, the open parts of the orders beyondRefs found (`refs`), people as the orders
 * recorded them (amounts only).
 */
export async function partsBeyond(db: Db | Tx, pairs: number, refs: string): Promise<OpenPart[][]> {
  const rows = refs
    ? refs.split(",").map((r) => {
        const [i, id, version] = r.split(":");
        return { i: Number(i), id: id!, version: Number(version) };
      })
    : [];
  const unique = [...new Map(rows.map((r) => [r.id, { id: r.id, version: r.version }])).values()];
  const made = await partsOf(db, unique, (ids) => recordedParts(db, ids));
  const byId = new Map(unique.map((ref, i) => [ref.id, made[i]!]));
  return Array.from({ length: pairs }, (_, i) =>
    rows.filter((r) => r.i === i).flatMap((r) => byId.get(r.id) ?? []),
  );
}

/**
 * For each pair of people: the open parts of the orders that concern both, but for the orders of
 * `openParts(db, userId, withId)`, which the caller holds. People as the orders recorded them
 * (amounts only). One query for all the pairs; in a group that shops together it finds none.
 */
export async function openPartsBeyond(
  db: Db | Tx,
  pairs: Array<[string, string]>,
  userId: string,
  withId?: string,
): Promise<OpenPart[][]> {
  if (pairs.length === 0) return [];
  const [found] = await executeRows<{ refs: string }>(
    db,
    sql`select ${beyondRefs(pairsText(pairs), userId, withId)} as refs`,
  );
  return partsBeyond(db, pairs.length, found!.refs);
}

/**
 * These orders' open parts with people named as each order recorded them (payee, payers, shares),
 * from one query of their rows and books; an order with nothing open has none.
 */
async function recordedParts(db: Db | Tx, ids: string[]) {
  const found = await db
    .select({
      row: orders,
      payers: sql<PayerRow[]>`(select coalesce(json_agg(json_build_object(
          'orderId', p.order_id, 'userId', p.user_id, 'name', p.name,
          'amountCents', p.amount_cents, 'position', p.position) order by p.position), '[]')
        from ${orderPayers} p where p.order_id = "orders"."id")`,
      recorded: sql<{ userId: string; name: string }[]>`(select coalesce(json_agg(
          json_build_object('userId', s.user_id, 'name', s.name)), '[]')
        from ${orderShares} s where s.order_id = "orders"."id")`,
      // Qualified by hand: inside a select's field Drizzle writes a column without its table.
      book: bookJson(sql`"orders"."id"`),
    })
    .from(orders)
    .where(inArray(orders.id, ids));
  return found.map(({ row, payers, recorded, book }) => {
    const names = new Map<string, string>();
    if (row.payeeId) names.set(row.payeeId, row.payeeName);
    for (const r of [...payers, ...recorded]) names.set(r.userId, r.name);
    return {
      id: row.id,
      version: row.version,
      parts: partsOfOrder(
        row,
        pairsOfJson(book),
        payersFor(row, payers).map((p) => p.userId),
        new Map([[row.id, names]]),
      ),
    };
  });
}

/** One order's open parts, from its pairs (also used under a transfer's lock). */
export function partsOfOrder(
  row: OrderRow,
  pairs: Pair[],
  payerIds: readonly string[],
  names: Map<string, Map<string, string>> = new Map(),
): OpenPart[] {
  const nameOf = (id: string) => names.get(row.id)?.get(id) ?? "";
  const placedAt = new Date(row.placedAt);
  return pairs
    .filter((p) => p.orderId === row.id && p.net !== 0)
    .map((p) => ({
      orderId: row.id,
      sessionId: row.sessionId,
      number: row.number,
      sessionName: row.sessionName,
      placedAt,
      debtorId: p.debtor,
      debtorName: nameOf(p.debtor),
      payerId: p.creditor,
      payerName: nameOf(p.creditor),
      cents: p.net,
      status: shareBook(pairs, p.debtor, payerIds, placedAt).status,
    }));
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
  const pairs = await pairsOfOrders(db, [orderId]);
  const pair = pairs.find(
    (p) =>
      (p.debtor === debtorId && p.creditor === payerId) ||
      (p.debtor === payerId && p.creditor === debtorId),
  );
  if (!pair) return 0;
  return pair.debtor === debtorId ? pair.net : -pair.net;
}

/**
 * What `fromId` owes `toId` (their shares' parts, and credits `toId` is owed back), oldest first;
 * what `toId` owes `fromId`; and the amounts that settle whole parts, in cents: the oldest k owed
 * less everything owed back, for k = 1, 2, … (only those above 0).
 */
export function openBetween(parts: OpenPart[], fromId: string, toId: string) {
  const owe = parts
    .filter((p) => flowOf(p).fromId === fromId && flowOf(p).toId === toId)
    .sort(oldestFirst);
  const back = parts.filter((p) => flowOf(p).fromId === toId && flowOf(p).toId === fromId);
  const owedBack = flowTotal(back);
  let running = 0;
  const upTo = owe.map((p) => (running += flowOf(p).cents) - owedBack);
  return { owe, back, upTo, matching: upTo.filter((c) => c > 0) };
}

/** What the parts come to, each in the direction it flows (cents, positive). */
export const flowTotal = (parts: OpenPart[]) => parts.reduce((a, p) => a + flowOf(p).cents, 0);
const oldestFirst = (a: OpenPart, b: OpenPart) =>
  a.placedAt.getTime() - b.placedAt.getTime() || a.number - b.number;
