/**
 * Open carts follow the catalog: after products changed (a price, their availability, their
 * stock, by an import or the operator), every active cart holding one of them moves on. Each such
 * cart is one session write (the cart's lock, the version moves once) with no activity entry: the
 * catalog changed, not a member. Its members hear `cart.updated` (and `session.updated` while a
 * ready mark is set, since marks clear by the ready-mark rule when a share's total moved) and
 * `catalog.updated` naming the products; members whose share moved get one "changes"
 * notification. Nothing is written to the lines: a line shows its product's price now, the price
 * members last saw beside it, and the split follows (carts/view.ts). This path does the work, so
 * the cart's own writes read nothing more.
 */
import { fromCents } from "@cartner/contract";
import { sql } from "drizzle-orm";
import { executeRows, type Database, type Db } from "../../db/client.ts";
import { systemClock } from "../../lib/clock.ts";
import type { Clock } from "../../lib/clock.ts";
import { formatMoney } from "../../lib/money.ts";
import { cartChanged, splitOf, type CartView } from "../carts/index.ts";
import { LIVE_CHANNEL, type EventBus, type Published } from "../live/index.ts";
import { later, type NotificationDeps } from "../notifications/index.ts";
import { writeSession } from "../sessions/index.ts";

export interface CatalogChangeDeps {
  db: Db;
  clock: Clock;
  /** Every instance's sockets hear of it (on PostgreSQL the bus is NOTIFY). */
  events: Pick<EventBus, "publish">;
  /** Absent (a command line without the app's channels): nobody is notified, carts still move. */
  notices?: NotificationDeps | undefined;
  currency: string;
}

/**
 * The deps of a process without the app (the import's command line): on PostgreSQL the members'
 * live events go to the running servers over the live channel, as a server's own would; the
 * embedded database has no server running meanwhile (its clients refetch when they connect).
 * Nothing is notified (no channels). `sent()` waits for the events on their way.
 */
export function commandLineDeps(
  database: Pick<Database, "db" | "kind">,
  currency: string,
): CatalogChangeDeps & { sent(): Promise<unknown> } {
  const sending: Promise<unknown>[] = [];
  const publish = (published: Published) => {
    if (database.kind !== "postgres") return;
    const message = JSON.stringify({ ...published, at: Date.now() });
    sending.push(database.db.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${message})`));
  };
  return {
    db: database.db,
    clock: systemClock,
    events: { publish },
    currency,
    sent: () => Promise.allSettled(sending),
  };
}

interface AffectedCart {
  cartId: string;
  sessionId: string;
  creatorId: string;
  productIds: string[];
}

/** The fields open carts follow: a change to one of these moves the carts holding the product. */
export const FOLLOWED_FIELDS: ReadonlySet<string> = new Set(["price", "available", "stock"]);

/** After `productIds` changed and committed: every active cart holding one of them follows. */
export async function followCatalog(
  deps: CatalogChangeDeps,
  productIds: readonly string[],
): Promise<void> {
  if (productIds.length === 0) return;
  const affected = await executeRows<AffectedCart>(
    deps.db,
    sql`select c.id as "cartId", c.session_id as "sessionId", s.creator_id as "creatorId",
          json_agg(distinct l.product_id) as "productIds"
        from cart_lines l join carts c on c.id = l.cart_id join sessions s on s.id = c.session_id
        where c.status = 'active' and l.product_id in
          (select json_array_elements_text(${JSON.stringify(productIds)}::json)::uuid)
        group by c.id, c.session_id, s.creator_id
        order by c.session_id`,
  );
  for (const cart of affected) await followCart(deps, cart);
}

/**
 * A cart with private lines: the changed products each member may hear of (those on a line not
 * hidden from them), members grouped by the same list; none for a member who sees none of them.
 */
function productsSeen(
  view: CartView,
  productIds: string[],
): { productIds: string[]; users: string[] }[] {
  const groups = new Map<string, { productIds: string[]; users: string[] }>();
  for (const m of view.members) {
    if (m.role === "pending") continue;
    const seen = productIds.filter((id) =>
      view.lines.some((l) => l.productId === id && !l.hiddenFrom.includes(m.userId)),
    );
    if (seen.length === 0) continue;
    const key = seen.join(",");
    const group = groups.get(key) ?? { productIds: seen, users: [] };
    group.users.push(m.userId);
    groups.set(key, group);
  }
  return [...groups.values()];
}

async function followCart(deps: CatalogChangeDeps, cart: AffectedCart): Promise<void> {
  const { result: view } = await writeSession(deps.db, deps, {
    sessionId: cart.sessionId,
    // Nobody acts: the gate checks only the session's state (a null action).
    userId: cart.creatorId,
    action: null,
    active: false,
    change: async ({ tx, session }) => {
      if (session.status !== "active") return { result: null, version: "unchanged" };
      const [row] = await executeRows<{ view: CartView }>(
        tx,
        sql`select cart_view(${cart.cartId}) as view`,
      );
      return { result: row!.view };
    },
    events: (changed, session, cartId) => {
      if (!changed) return [];
      const marked = changed.members.some((m) => m.ready);
      const event = (productIds: string[]) => ({
        type: "catalog.updated" as const,
        sessionId: session.id,
        cartId,
        productIds,
        version: session.version,
      });
      return [
        ...cartChanged(session.id, cartId, session.version, marked),
        ...(changed.lines.some((l) => l.hiddenFrom.length > 0)
          ? productsSeen(changed, cart.productIds).map(({ productIds, users }) => ({
              event: event(productIds),
              users,
            }))
          : [{ event: event(cart.productIds), members: session.id }]),
      ];
    },
  });
  if (view && deps.notices) tellShareMoves(deps, deps.notices, view, new Set(cart.productIds));
}

/**
 * Members whose share's total moved hear it once, grouped with the session's other changes: what
 * changed (a price, with the old one; a product no longer on sale) and their share now. The share
 * before is the cart's split as members last saw it: the changed products at the prices last seen,
 * and on sale.
 */
function tellShareMoves(
  deps: CatalogChangeDeps,
  notices: NotificationDeps,
  view: CartView,
  changed: ReadonlySet<string>,
): void {
  const before = splitOf({
    ...view,
    lines: view.lines.map((l) =>
      l.productId !== null && changed.has(l.productId)
        ? { ...l, unitPriceCents: l.seenPriceCents, available: true }
        : l,
    ),
  }).shares;
  const after = new Map(splitOf(view).shares.map((s) => [s.userId, s.total]));
  const moved = before.filter((s) => (after.get(s.userId) ?? 0) !== s.total).map((s) => s.userId);
  if (moved.length === 0) return;
  const money = (cents: number) => formatMoney(fromCents(cents), deps.currency);
  // What each member is told of: the changed lines they see (none hidden from them).
  const what = (userId: string) =>
    view.lines
      .filter(
        (l) => l.productId !== null && changed.has(l.productId) && !l.hiddenFrom.includes(userId),
      )
      .map((l) =>
        !l.available
          ? `${l.productName} is no longer available`
          : l.seenPriceCents !== l.unitPriceCents
            ? `${l.productName} now ${money(l.unitPriceCents)} (was ${money(l.seenPriceCents)})`
            : null,
      )
      .filter((text, i, all) => text !== null && all.indexOf(text) === i);
  const session = view.session;
  later(notices, {
    kind: "changes",
    userIds: moved,
    sessionId: session.id,
    title: `Changes in ${session.name}`,
    body: (userId) => {
      const seen = what(userId);
      return `${seen.length > 0 ? seen.join("; ") : "The catalog changed"} in ${session.name}: your share is now ${money(after.get(userId) ?? 0)}.`;
    },
    url: `/cart/${session.id}`,
  });
}
