/**
 * Buy again: what a cart's group bought before, offered for one tap on the cart.
 *
 * Which orders count (placed in the last BUY_AGAIN_DAYS days):
 * - the series': orders of the sessions this one follows (`previous_session_id`, walked back at
 *   most BUY_AGAIN_ORDERS sessions, stopping at a session older than the window), whoever was in
 *   them: the series is the group's;
 * - the reader's with these members: orders of sessions the reader paid in (creator or
 *   participant) where every other paying member of this session paid too, so a larger group's
 *   orders count, a group missing one of today's members does not; the latest BUY_AGAIN_ORDERS of
 *   them, found from the reader's memberships by (user_id, created_at).
 * Every step is an index lookup (sessions' and orders' keys, orders by session, memberships by
 * reader and time), so a group with years of weekly orders reads at most the window's orders.
 *
 * What they bought: each catalog product of their lines, and each free line by its name (case and
 * outer spaces aside), counted once per order (`times`), most often first, ties by the latest
 * order; a product at its price now, a free line at what the latest order paid for it (its price
 * adjustment, else its estimate); leaving out products no longer sold, whatever the cart
 * already holds (a product, or a free line of that name), and an order's lines hidden from the
 * reader (private lines: decision 049).
 */
import {
  BUY_AGAIN_LIMIT_DEFAULT,
  fromCents,
  SHARE_CARRYING_ROLES,
  type BuyAgainItem,
  type Role,
} from "@cartner/contract";
import { sql, type SQL } from "drizzle-orm";
import { requireAllowed } from "../../lib/permissions.ts";
import type { CartDeps } from "./deps.ts";

/** How far back the orders go. */
export const BUY_AGAIN_DAYS = 365;
/** At most this many orders from each source (a year of weekly orders). */
export const BUY_AGAIN_ORDERS = 52;

const DAY_MS = 24 * 3600 * 1000;

interface BoughtRow {
  /** The product; null for a free line's name. */
  id: string | null;
  name: string;
  price_cents: number;
  slug: string | null;
  image_hash: string | null;
  times: number;
  last_at: Date | string;
}

/** The cart's session, once the caller's role there allows it (404 for no cart or no member). */
async function cartOfMember(deps: Pick<CartDeps, "rows">, cartId: string, userId: string) {
  const [row] = await deps.rows<{ session_id: string; role: Role | null }>(sql`
    select c.session_id, m.role
    from carts c
    left join session_members m on m.session_id = c.session_id and m.user_id = ${userId}
    where c.id = ${cartId}`);
  requireAllowed(row?.role, "cart.buyAgain", "Cart not found");
  return row!;
}

/** The roles that pay (carry a share), as the contract says. */
const paying = sql`(${sql.join(
  SHARE_CARRYING_ROLES.map((role) => sql`${role}`),
  sql`, `,
)})`;

/** The statement (see the file's comment): the reader's cart, its session, the window's start. */
export function boughtQuery(p: {
  cartId: string;
  sessionId: string;
  userId: string;
  since: string;
  limit: number;
}): SQL {
  const { cartId, sessionId, userId, since, limit } = p;
  return sql`
    with recursive
    series (id, depth) as (
      select s.previous_session_id, 1 from sessions s
      where s.id = ${sessionId} and s.previous_session_id is not null
      union all
      select p.previous_session_id, series.depth + 1
      from series join sessions p on p.id = series.id
      where p.previous_session_id is not null and p.created_at >= ${since}::timestamptz
        and series.depth < ${BUY_AGAIN_ORDERS}
    ),
    others as (
      select m.user_id from session_members m
      where m.session_id = ${sessionId} and m.user_id <> ${userId} and m.role in ${paying}
    ),
    readers as (
      select o.id
      from session_members me
      join orders o on o.session_id = me.session_id
      where me.user_id = ${userId} and me.created_at >= ${since}::timestamptz
        and me.role in ${paying} and me.session_id <> ${sessionId}
        and o.placed_at >= ${since}::timestamptz
        and not exists (
          select 1 from others where not exists (
            select 1 from session_members them
            where them.session_id = me.session_id and them.user_id = others.user_id
              and them.role in ${paying}))
      order by me.created_at desc
      limit ${BUY_AGAIN_ORDERS}
    ),
    past as (
      select o.id from series join orders o on o.session_id = series.id
      where o.placed_at >= ${since}::timestamptz
      union
      select id from readers
    ),
    bought_lines as (
      select o.id as order_id, o.placed_at, (l.line ->> 'productId')::uuid as product_id,
        l.line ->> 'name' as name,
        -- What the payee priced it at after the shop, else its price at checkout.
        coalesce(
          (select (a.adj ->> 'unitPriceCents')::int
            from jsonb_array_elements(o.adjustments) with ordinality as a(adj, n)
            where a.adj ->> 'kind' = 'price' and (a.adj ->> 'lineIndex')::int = l.n - 1
            order by a.n desc limit 1),
          (l.line ->> 'unitPriceCents')::int) as paid_cents
      from past
      join orders o on o.id = past.id
      cross join lateral jsonb_array_elements(o.lines) with ordinality as l(line, n)
      -- A line hidden from the reader (a private line) was never bought as far as they know.
      where not coalesce((l.line -> 'hiddenFrom') @> jsonb_build_array(${userId}::text), false)
    ),
    bought as (
      select product_id,
        case when product_id is null then lower(btrim(name)) end as free_key,
        count(distinct order_id)::int as times, max(placed_at) as last_at,
        (array_agg(name order by placed_at desc))[1] as name,
        (array_agg(paid_cents order by placed_at desc))[1] as paid_cents
      from bought_lines
      group by product_id, free_key
    )
    select b.product_id as id, coalesce(p.name, b.name) as name,
      coalesce(p.price_cents, b.paid_cents) as price_cents, p.slug, p.image_hash, b.times,
      b.last_at
    from bought b
    left join products p on p.id = b.product_id
    where (b.product_id is null or p.available)
      and not exists (
        select 1 from cart_lines cl
        where cl.cart_id = ${cartId}
          and (cl.product_id = b.product_id
            or (b.product_id is null and lower(btrim(cl.name)) = b.free_key)))
    order by b.times desc, b.last_at desc, coalesce(p.name, b.name), b.free_key, b.product_id
    limit ${limit}`;
}

/** What the cart's group bought before, as the file's comment says. */
export async function buyAgain(
  deps: Pick<CartDeps, "rows" | "media" | "clock">,
  cartId: string,
  userId: string,
  limit = BUY_AGAIN_LIMIT_DEFAULT,
): Promise<BuyAgainItem[]> {
  const { session_id: sessionId } = await cartOfMember(deps, cartId, userId);
  const since = new Date(deps.clock.now().getTime() - BUY_AGAIN_DAYS * DAY_MS).toISOString();
  const rows = await deps.rows<BoughtRow>(boughtQuery({ cartId, sessionId, userId, since, limit }));
  return rows.map((r) => ({
    productId: r.id,
    name: r.name,
    imageUrl:
      r.slug && r.image_hash
        ? deps.media.productImage(r.slug, r.image_hash)
        : deps.media.freeLineImage(),
    price: fromCents(r.price_cents),
    times: r.times,
    lastAt: new Date(r.last_at).toISOString(),
  }));
}
