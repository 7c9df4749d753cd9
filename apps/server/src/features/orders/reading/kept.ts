/**
 * Orders kept in memory by id and version (docs/decisions/045-history-reads.md). An order's view
 * is the same whoever reads it, and every write to what it shows moves `orders.version` in the
 * writer's transaction (triggers: src/db/functions.ts), so a view built once is sent again, as its
 * JSON, for as long as the version the request reads is the one it was built at; nothing is ever
 * invalidated by hand, and a write on another instance is seen the same way.
 *
 * Three kinds of entries, each bounded and dropped oldest-used first:
 * - views: an order's JSON as the API sends it, its answer `{ order }` (with its compressed forms,
 *   made when first asked), and the few fields lists and the CSV read of it;
 * - parts: an order's open parts (open-parts.ts), what balances and the settle plan add up;
 * - pages: a reader's list answer, kept with the ids and versions it was made of, sent again while
 *   the same query finds the same orders at the same versions (lib/kept-answers.ts, kept with the
 *   other lists' answers).
 *
 * Only reads outside a transaction keep anything: the store belongs to the app's database handle
 * (keepOrders, in src/services.ts), and a transaction's handle has none.
 */
import { OrderSchema, type Order } from "@cartner/contract";
import { sql, type SQL } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import { orderMarks } from "../../../db/schema.ts";
import type { EncodableBody } from "../../../lib/encoded-body.ts";
import { keptAnswer, putBounded } from "../../../lib/kept-answers.ts";
import { meter } from "../../../lib/metrics.ts";
import type { OpenPart } from "../balances/open-parts.ts";
import { hasPrivate, orderSeenBy } from "./private.ts";
import { loadOrders, viewOf, type LoadedOrder } from "./view.ts";

/** An order as a read names it: its id and the version it read. */
export interface OrderRef {
  id: string;
  version: number;
}

/** Refs read as one text, `id:version,…` (one row to read, however many orders). */
export const refsOfText = (text: string | null | undefined): OrderRef[] =>
  text
    ? text.split(",").map((ref) => {
        const at = ref.indexOf(":");
        return { id: ref.slice(0, at), version: Number(ref.slice(at + 1)) };
      })
    : [];

/** These ids as a PostgreSQL array literal (sorted: the same set, the same text). */
export const idsText = (ids: Iterable<string>): string => `{${[...new Set(ids)].sort().join(",")}}`;

/**
 * The sum of the weights of these people's marks (an array literal, idsText), as text: a
 * scalar subquery, an index lookup per person (docs/decisions/061-person-marks.md). It grows by
 * one with every committed transaction that wrote an order one of them is on or took them off one,
 * whatever order those commit in, and never shrinks: the same sum, no such write since it was
 * read. Balances, the settle plan and the CSV of all orders are kept while it reads the same.
 */
export const marksOf = (people: string): SQL =>
  sql`(select coalesce(sum(m.weight), 0)::text from ${orderMarks} m
    where m.person_id = any(${people}::uuid[]))`;

/** What lists filter on and the CSV of all orders writes, without parsing the JSON again. */
export type OrderSummary = Pick<
  Order,
  "_id" | "number" | "placedAt" | "sessionName" | "payee" | "total" | "split"
>;

export interface KeptView {
  version: number;
  /** The order as the API sends it (OrderSchema, serialised). */
  json: string;
  summary: OrderSummary;
  /** `{ "order": … }`, the answer of GET /orders/:id, made the first time it is asked. */
  answer?: EncodableBody;
  /**
   * A line is hidden from someone (private.ts): each reader's answer is made from `json` for them
   * (jsonFor, answerFor), never `json` itself.
   */
  private: boolean;
}

interface KeptParts {
  version: number;
  /** Its open parts, people named as the order recorded them (open-parts.ts renames them). */
  parts: OpenPart[];
}

/** How much is kept: views by characters of JSON, parts by orders. */
export interface KeptLimits {
  viewChars: number;
  parts: number;
}

/**
 * 32 M characters of views hold about 2,500 orders of 40 lines (12.6 KB each) and far more small
 * ones; an order's parts are a few hundred bytes (none once settled).
 */
export const KEPT_LIMITS: KeptLimits = {
  viewChars: 32_000_000,
  parts: 50_000,
};

interface Store {
  limits: KeptLimits;
  views: Map<string, KeptView>;
  viewChars: number;
  parts: Map<string, KeptParts>;
}

const stores = new WeakMap<object, Store>();

/** Keeps orders for reads through this database handle (the app's; once, in services.ts). */
export function keepOrders(db: Db, limits: KeptLimits = KEPT_LIMITS): void {
  stores.set(db, {
    limits,
    views: new Map(),
    viewChars: 0,
    parts: new Map(),
  });
}

const storeOf = (db: Db | Tx): Store | undefined => stores.get(db);

/** The entry at `key` if it is at `version`, made the most recently used. */
function fresh<T extends { version: number }>(map: Map<string, T>, key: string, version: number) {
  const entry = map.get(key);
  if (entry === undefined || entry.version !== version) return undefined;
  map.delete(key);
  map.set(key, entry);
  return entry;
}

const viewSize = (v: KeptView) => v.json.length * 2;

function keepView(store: Store, id: string, view: KeptView): void {
  store.viewChars = putBounded(
    store.views,
    id,
    view,
    store.viewChars,
    store.limits.viewChars,
    viewSize,
  );
}

/** Orders are loaded this many at a time: a long history never holds the thread in one go. */
const LOAD_CHUNK = 50;

/** Each chunk of ids loaded whole (one statement each: an order with its own version). */
export async function* loadedInChunks(db: Db | Tx, ids: string[]): AsyncGenerator<LoadedOrder> {
  for (let i = 0; i < ids.length; i += LOAD_CHUNK) {
    yield* await loadOrders(db, ids.slice(i, i + LOAD_CHUNK));
  }
}

/** An order's view as kept: its JSON checked against the contract once, here. */
export function viewToKeep(found: LoadedOrder): KeptView {
  const order = viewOf(found);
  const { _id, number, placedAt, sessionName, payee, total, split } = order;
  return {
    version: found.row.version,
    json: JSON.stringify(OrderSchema.encode(order)),
    summary: { _id, number, placedAt, sessionName, payee, total, split },
    private: hasPrivate(order),
  };
}

/** The order's JSON as `readerId` sees it: the kept one, unless a line is private. */
export function jsonFor(view: KeptView, readerId: string): string {
  if (!view.private) return view.json;
  return JSON.stringify(orderSeenBy(JSON.parse(view.json) as Order, readerId));
}

/**
 * The views of these orders, in their order: kept ones at the version read, the others loaded,
 * built and kept. An order gone meanwhile is left out; one changed meanwhile is answered as loaded.
 */
export async function viewsOf(db: Db | Tx, refs: OrderRef[]): Promise<KeptView[]> {
  const store = storeOf(db);
  const found = new Map<string, KeptView>();
  const missing: string[] = [];
  for (const ref of refs) {
    const kept = store && fresh(store.views, ref.id, ref.version);
    if (kept) found.set(ref.id, kept);
    else missing.push(ref.id);
  }
  if (store) meter.cacheLookups("orders", refs.length - missing.length, missing.length);
  for await (const loaded of loadedInChunks(db, missing)) {
    const view = viewToKeep(loaded);
    found.set(loaded.row.id, view);
    if (store) keepView(store, loaded.row.id, view);
  }
  return refs.flatMap((ref) => found.get(ref.id) ?? []);
}

/**
 * The view's answer `{ order }` to `readerId`: made once per kept view, or for each reader of an
 * order with a private line.
 */
export function answerFor(view: KeptView, readerId: string): EncodableBody {
  if (view.private) return { body: `{"order":${jsonFor(view, readerId)}}` };
  return (view.answer ??= { body: `{"order":${view.json}}` });
}

/**
 * The open parts of these orders (in their order), kept ones at the version read, the others
 * made by `load` (which answers each order's id, version and parts) and kept.
 */
export async function partsOf(
  db: Db | Tx,
  refs: OrderRef[],
  load: (ids: string[]) => Promise<Array<{ id: string; version: number; parts: OpenPart[] }>>,
): Promise<OpenPart[][]> {
  const store = storeOf(db);
  const found = new Map<string, OpenPart[]>();
  const missing: string[] = [];
  for (const ref of refs) {
    const kept = store && fresh(store.parts, ref.id, ref.version);
    if (kept) found.set(ref.id, kept.parts);
    else missing.push(ref.id);
  }
  if (store) meter.cacheLookups("order_parts", refs.length - missing.length, missing.length);
  for (let i = 0; i < missing.length; i += LOAD_CHUNK) {
    for (const made of await load(missing.slice(i, i + LOAD_CHUNK))) {
      found.set(made.id, made.parts);
      if (!store) continue;
      store.parts.delete(made.id);
      store.parts.set(made.id, { version: made.version, parts: made.parts });
      if (store.parts.size > store.limits.parts) {
        store.parts.delete(store.parts.keys().next().value!);
      }
    }
  }
  return refs.map((ref) => found.get(ref.id) ?? []);
}

/**
 * A list answer: the one kept under `key` when it was made of the same orders at the same
 * versions (`made`), else `make()`'s, kept (lib/kept-answers.ts).
 */
export function pageOf(
  db: Db | Tx,
  key: string,
  made: string,
  make: () => Promise<string>,
): Promise<EncodableBody> {
  return keptAnswer(db, "order_pages", key, made, make);
}
