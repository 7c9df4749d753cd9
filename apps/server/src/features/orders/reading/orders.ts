/** Reading orders: My Orders, one order, and its book, each as its reader may see it. */
import {
  type LedgerEntry,
  type Order,
  type OrderCaller,
  type OrdersQuery,
  type PageQuery,
} from "@cartner/contract";
import { sql, type SQL } from "drizzle-orm";
import { ledgerEntries, orderPayers, orderShares, orders, users } from "../../../db/schema.ts";
import type { EncodableBody } from "../../../lib/encoded-body.ts";
import { keptAnswer } from "../../../lib/kept-answers.ts";
import { notFound } from "../../../lib/errors.ts";
import { requireAllowed } from "../../../lib/permissions.ts";
import { access } from "../access.ts";
import { executeRows, lightRows } from "../../../db/client.ts";
import type { OrderDeps } from "../deps.ts";
import { entriesOf } from "./entries.ts";
import {
  idsText,
  jsonFor,
  marksOf,
  pageOf,
  refsOfText,
  viewsOf,
  type KeptView,
  type OrderRef,
  type OrderSummary,
} from "./kept.ts";

/**
 * The orders the user is the payee of or has a share in (ids only: a set an index finds), for the
 * CSV of all of them.
 */
const mineIds = (userId: string): SQL => sql`(select s.order_id from ${orderShares} s
  where s.user_id = ${userId} union select o.id from ${orders} o where o.payee_id = ${userId})`;

type PageRefsQuery = Pick<OrdersQuery, "sessionId" | "toPay"> & PageQuery;

/** Ids and versions as one text, newest first, of rows with id, version, placed_at, number. */
const refsOf = (rows: SQL): SQL =>
  sql`select string_agg(q.id::text || ':' || q.version, ',' order by q.placed_at desc, q.number desc)
    from (${rows}) q`;

/**
 * Every order of the user, newest first, as ids and versions in one text (refsOfText reads it):
 * all of them, whatever the history (the CSV of all orders).
 */
export function allRefsText(userId: string): SQL {
  return refsOf(sql`select o.id, o.version, o.placed_at, o.number from ${orders} o
    where o.id in ${mineIds(userId)}`);
}

/**
 * A page of the query's orders as ids and versions, newest first (`limit` + 1 of them: is there
 * more?), as one text (refsOfText reads it). It reads about a page of rows, whatever the history:
 * each way of being in an order (a share, the payee, a payer) is an index on (person, placed_at
 * desc, number desc), the shares' and payers' rows carrying their order's sort key, so each branch
 * reads its first `limit` + 1 after the cursor in order and stops; the union of those holds the
 * page's. The cursor is the last order read: the page goes on strictly after its (placed_at,
 * number), which no two orders share (number is unique), so orders placed at the same time page
 * by number. With `sessionId` (a few sessions, one order each), those orders are read instead.
 */
function pageRefsText(userId: string, query: PageRefsQuery): SQL {
  const n = query.limit + 1;
  const cursorAt = sql`(select c.placed_at from ${orders} c where c.id = ${query.cursor ?? null})`;
  const cursorNumber = sql`(select c.number from ${orders} c where c.id = ${query.cursor ?? null})`;
  // Two scalars, not one row subquery: a row comparison of columns with values is what an index
  // scan starts from.
  const after = (at: SQL, number: SQL) =>
    query.cursor ? sql`and (${at}, ${number}) < (${cursorAt}, ${cursorNumber})` : sql``;
  const owed = (orderId: SQL) => (query.toPay ? sql`and ${stillOwedBy(userId, orderId)}` : sql``);
  // The reader's share rows or payer rows, each carrying its order's sort key, a page from their
  // (user_id, placed_at, order_number) index.
  const memberRows = (rows: typeof orderShares | typeof orderPayers) =>
    sql`(select r.order_id as id, r.placed_at, r.order_number as number from ${rows} r
      where r.user_id = ${userId} ${after(sql`r.placed_at`, sql`r.order_number`)}
        ${owed(sql`r.order_id`)}
      order by r.placed_at desc, r.order_number desc limit ${n})`;
  if (query.sessionId) {
    return refsOf(sql`select o.id, o.version, o.placed_at, o.number from ${orders} o
      where o.session_id in (${sql.join(
        query.sessionId.map((id) => sql`${id}`),
        sql`, `,
      )})
        and (o.payee_id = ${userId}
          or exists (select 1 from ${orderShares} s where s.order_id = o.id and s.user_id = ${userId})
          or exists (select 1 from ${orderPayers} p where p.order_id = o.id and p.user_id = ${userId}))
        ${after(sql`o.placed_at`, sql`o.number`)} ${owed(sql`o.id`)}
      order by o.placed_at desc, o.number desc limit ${n}`);
  }
  return refsOf(sql`select o.id, o.version, o.placed_at, o.number from (
      select k.id, k.placed_at, k.number from (
        ${memberRows(orderShares)}
        union
        (select o.id, o.placed_at, o.number from ${orders} o
          where o.payee_id = ${userId} ${after(sql`o.placed_at`, sql`o.number`)} ${owed(sql`o.id`)}
          order by o.placed_at desc, o.number desc limit ${n})
        union
        ${memberRows(orderPayers)}
      ) k order by k.placed_at desc, k.number desc limit ${n}
    ) k join ${orders} o on o.id = k.id`);
}

async function pageRefs(
  deps: Pick<OrderDeps, "db" | "light">,
  userId: string,
  query: PageRefsQuery,
): Promise<OrderRef[]> {
  const [found] = await lightRows<{ refs: string | null }>(
    deps,
    sql`select (${pageRefsText(userId, query)}) as refs`,
  );
  return refsOfText(found?.refs);
}

/**
 * The SQL keeps the orders where the reader still owes someone; the book says whether that is
 * "unpaid" or already said paid and waiting for confirmation.
 */
const toPayBy = (userId: string) => (v: KeptView) =>
  v.summary.payee._id !== userId &&
  v.summary.split.some((s) => s.userId === userId && s.status === "unpaid");

/**
 * A page of the orders the user is the payee of, a payer of or has a share in, newest first, as
 * the JSON answer: only the page's ids and versions are read; each order's view is the one kept
 * at that version, or built and kept (kept.ts), whatever the history. The answer itself is kept
 * for the reader and query while it is made of the same orders at the same versions. `toPay`
 * keeps the orders where the reader's share is still unpaid (status "unpaid", never their own as
 * payee).
 */
export async function orderPage(
  deps: Pick<OrderDeps, "db" | "light">,
  userId: string,
  query: Pick<OrdersQuery, "sessionId" | "toPay"> & PageQuery,
): Promise<EncodableBody> {
  const { db } = deps;
  const refs = await pageRefs(deps, userId, query);
  const page = refs.slice(0, query.limit);
  const nextCursor = refs.length > query.limit ? page.at(-1)!.id : null;
  const key = `${userId} ${query.limit} ${query.cursor ?? ""} ${query.toPay ?? ""} ${query.sessionId?.join(",") ?? ""}`;
  const made = `${page.map((r) => `${r.id}:${r.version}`).join(",")} ${nextCursor}`;
  return pageOf(db, key, made, async () => {
    let views = await viewsOf(db, page);
    if (query.toPay) views = views.filter(toPayBy(userId));
    return `{"orders":[${views.map((v) => jsonFor(v, userId)).join(",")}],"nextCursor":${JSON.stringify(nextCursor)}}`;
  });
}

/** A page of the user's orders as objects (orderPage() is the same answer as JSON). */
export async function listOrders(
  deps: Pick<OrderDeps, "db">,
  userId: string,
  query: Pick<OrdersQuery, "sessionId" | "toPay"> & PageQuery,
): Promise<{ orders: Order[]; nextCursor: string | null }> {
  return JSON.parse((await orderPage(deps, userId, query)).body) as {
    orders: Order[];
    nextCursor: string | null;
  };
}

/** The CSV of all orders' light query: the reader's marks and time zone. */
export const allOrdersLight = (userId: string): SQL =>
  sql`select ${marksOf(idsText([userId]))} as marks,
    (select u.time_zone from ${users} u where u.id = ${userId}) as "timeZone"`;

/**
 * Every order of the user, newest first, as the CSV of all of them reads it (a download, not a
 * page), made into an answer by `make` in the reader's time zone and kept per reader while their
 * marks (kept.ts: moved by every write of one of their orders, and by being added to or taken off
 * one) and their zone read the same: one light query for both, then the kept answer; else the
 * orders' ids and versions, read after the marks, and their kept views, those not kept loaded
 * fifty at a time, so other requests are answered between the loads.
 */
export async function allOrdersAnswer(
  deps: Pick<OrderDeps, "db" | "light">,
  userId: string,
  make: (orders: OrderSummary[], timeZone: string) => string,
): Promise<EncodableBody> {
  const { db } = deps;
  const [found] = await lightRows<{ marks: string; timeZone: string | null }>(
    deps,
    allOrdersLight(userId),
  );
  const timeZone = found?.timeZone ?? "UTC";
  return keptAnswer(db, "order_csv", userId, `${timeZone} ${found!.marks}`, async () => {
    const [read] = await executeRows<{ refs: string | null }>(
      db,
      sql`select (${allRefsText(userId)}) as refs`,
    );
    const views = await viewsOf(db, refsOfText(read?.refs));
    return make(
      views.map((v) => v.summary),
      timeZone,
    );
  });
}

/**
 * The orders on which `userId` owes someone by the posted entries (claims waiting to be
 * confirmed do not pay): a cheap first cut, exact per counterparty, that the book then decides.
 */
function stillOwedBy(userId: string, orderId: SQL): SQL {
  return sql`exists (select 1 from ${ledgerEntries} e
    where e.order_id = ${orderId} and not e.pending
      and (e.from_id = ${userId} or e.to_id = ${userId})
    group by case when e.from_id = ${userId} then e.to_id else e.from_id end
    having sum(case when e.from_id = ${userId} then e.amount_cents else -e.amount_cents end) > 0)`;
}

/**
 * One order's kept view, to someone with a part in it: one light query for its version and the
 * reader's part (the permissions table's order callers, as access() decides them), then the view
 * kept at that version, or built and kept.
 */
export async function orderView(
  deps: Pick<OrderDeps, "db" | "light">,
  orderId: string,
  userId: string,
): Promise<KeptView> {
  const [found] = await lightRows<{
    /** bigint: a string from the drivers' own calls. */
    version: number | string;
    payee: boolean | null;
    payer: boolean;
    sharer: boolean;
  }>(
    deps,
    sql`select o.version, o.payee_id = ${userId} as payee,
      exists (select 1 from ${orderPayers} p
        where p.order_id = o.id and p.user_id = ${userId}) as payer,
      exists (select 1 from ${orderShares} s
        where s.order_id = o.id and s.user_id = ${userId}) as sharer
    from ${orders} o where o.id = ${orderId}`,
  );
  const role: OrderCaller | null = !found
    ? null
    : found.payee
      ? "payee"
      : found.payer
        ? "payer"
        : found.sharer
          ? "sharer"
          : "stranger";
  requireAllowed(role, "order.read", "Order not found");
  const [view] = await viewsOf(deps.db, [{ id: orderId, version: Number(found!.version) }]);
  if (!view) throw notFound("Order not found");
  return view;
}

/**
 * One order, to someone with a part in it, as they see it (its receipt and CSV read it the same
 * way: a line hidden from them is in none of them).
 */
export async function getOrder(
  deps: Pick<OrderDeps, "db">,
  orderId: string,
  userId: string,
): Promise<Order> {
  return JSON.parse(jsonFor(await orderView(deps, orderId, userId), userId)) as Order;
}

/** The order's book, oldest first (entries.ts). */
export async function orderEntries(
  deps: Pick<OrderDeps, "db">,
  orderId: string,
  userId: string,
  page: { cursor?: string; limit: number },
): Promise<{ entries: LedgerEntry[]; nextCursor: string | null }> {
  await access(deps, orderId, userId, "order.read");
  return entriesOf(deps.db, orderId, page);
}
