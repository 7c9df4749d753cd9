import {
  toCents,
  type Cart,
  type FreeLineBody,
  type LinePatchBody,
  type LineSubstitute,
  type User,
} from "@cartner/contract";
import { sql } from "drizzle-orm";
import { executeRows } from "../../db/client.ts";
import { carts } from "../../db/schema.ts";
import { invalidFields, notFound } from "../../lib/errors.ts";
import { writeSession } from "../sessions/index.ts";
import { tellCartChange } from "../notifications/index.ts";
import type { CartDeps } from "./deps.ts";
import { writeLineSetting, type SettingDeps } from "./line-setting.ts";
import { tellPending } from "./approval-events.ts";
import { hidingRefusal, hidingRefused, membersOf, uniqueIds } from "./hiding-rules.ts";
import { cartChanged } from "./events.ts";
import { accessCart } from "./reads.ts";
import { cartOf } from "./view.ts";

type FreeLineDeps = SettingDeps & Pick<CartDeps, "notices">;

/** An empty note is no note. */
const noteOf = (note: string | null | undefined) => (note ? note : null);

/** Whether a member's ready mark is set: then a change of the totals may clear it. */
const anyReady = sql`exists (select 1 from session_members m
  where m.session_id = (select session_id from carts where id = cart_lines.cart_id) and m.ready)`;

/**
 * The cart's answer after a committed change, and the other members told of it; `waiting`: the
 * line the change made wait for approval, which its audience hears of too.
 */
async function answer(
  deps: FreeLineDeps,
  cartId: string,
  user: User,
  waiting?: string,
): Promise<Cart> {
  const view = await accessCart(deps, { cartId }, user._id);
  if (deps.notices) tellCartChange(deps.notices, view, user._id);
  const line = waiting ? view.lines.find((l) => l.id === waiting) : undefined;
  if (line) tellPending(deps, view, user, line);
  return cartOf(view, user._id, deps.media, deps.clock.now());
}

/**
 * Something the catalog does not have, by name: a line of its own (never merged with another),
 * at its estimate (0 without one) until the payee prices it on the order. A session write with
 * the permissions table's `cart.add`: the same locks, gate and deadline as adding a product, one
 * `item.added` entry, one version step. `hiddenFrom`: private from the start (decision 049), the
 * hidden-from route's rules checked under the session's lock and the line written hidden, so its
 * entry, and so its notices, are hidden from those members from the first moment.
 */
export async function addFreeLine(
  deps: FreeLineDeps,
  cartId: string,
  user: User,
  body: FreeLineBody,
): Promise<Cart> {
  const [cart] = await deps.rows<{ sessionId: string }>(
    sql`select ${carts.sessionId} as "sessionId" from ${carts} where ${carts.id} = ${cartId}`,
  );
  if (!cart) throw notFound("Cart not found");
  const quantity = body.quantity ?? 1;
  const { result } = await writeSession(deps.db, deps, {
    sessionId: cart.sessionId,
    userId: user._id,
    action: "cart.add",
    notFound: "Cart not found",
    change: async ({ tx, now, session }) => {
      const hidden = uniqueIds(body.hiddenFrom ?? [], "hiddenFrom");
      if (hidden.length > 0) {
        const members = await membersOf(tx, session.id);
        const why = hidingRefusal(hidden, members, user._id, user._id);
        if (why) throw hidingRefused(why, "hiddenFrom");
      }
      const [added] = await executeRows<{ id: string; marked: boolean }>(
        tx,
        sql`insert into cart_lines (cart_id, product_id, name, added_by, quantity,
            unit_price_cents, note, added_at, updated_at, hidden_from)
          values (${cartId}, null, ${body.name}, ${user._id}, ${quantity},
            ${toCents(body.estimatedPrice ?? 0)}, ${noteOf(body.note)}, ${now}, ${now},
            ${`{${hidden.join(",")}}`}::uuid[])
          returning id, ${anyReady} as marked`,
      );
      // "Ask first" (cart_write_core()'s rule for a product's line): over the budget, it waits.
      const waits = await executeRows<{ id: string }>(
        tx,
        sql`update cart_lines l set pending_at = ${now}
          from session_members m
          where l.id = ${added!.id} and m.session_id = (select session_id from carts
              where id = ${cartId})
            and m.user_id = ${user._id} and m.budget_mode = 'ask'
            and m.budget_cents is not null and m.role <> 'creator'
            and member_share_over(${cartId}::uuid, ${user._id}::uuid, m.budget_cents)
          returning l.id`,
      );
      const pending = waits.length > 0;
      return {
        result: { marked: added!.marked, waiting: pending ? added!.id : undefined },
        activity: {
          type: "item.added",
          details: {
            productId: null,
            product: body.name,
            quantity,
            ...(pending ? { pending: true as const } : {}),
          },
          lineId: added!.id,
        },
      };
    },
    events: ({ marked }, session, lockedCartId) =>
      cartChanged(session.id, lockedCartId, session.version, marked),
  });
  return answer(deps, cartId, user, result.waiting);
}

interface LineNow {
  productId: string | null;
  free: boolean;
  name: string;
  note: string | null;
  substitute: LineSubstitute;
  unitPriceCents: number | null;
  lineOf: string;
}

/**
 * A line's note and substitute, for whoever shops; a free line's name and estimate too. Its
 * adder or the creator, while the cart is open (the same session write as sharing a line); one
 * `item.edited` entry naming what changed, nothing when nothing did.
 */
export async function editLine(
  deps: FreeLineDeps,
  cartId: string,
  user: User,
  lineId: string,
  body: LinePatchBody,
): Promise<Cart> {
  await writeLineSetting(
    deps,
    { cartId, user, lineId },
    async ({ tx, now }) => {
      const [line] = await executeRows<LineNow>(
        tx,
        sql`select l.product_id as "productId", l.product_id is null as free, coalesce(p.name, l.name) as name, l.note,
            l.substitute, l.unit_price_cents as "unitPriceCents", u.name as "lineOf"
          from cart_lines l left join products p on p.id = l.product_id
            join users u on u.id = l.added_by
          where l.id = ${lineId}`,
      );
      if (!line) throw notFound("That item is not in the cart.");
      if (!line.free && (body.name !== undefined || body.estimatedPrice !== undefined)) {
        const field = body.name !== undefined ? "name" : "estimatedPrice";
        throw invalidFields({ [field]: "Only an item added by name has its own name and price" });
      }
      const next = {
        name: body.name ?? line.name,
        note: body.note === undefined ? line.note : noteOf(body.note),
        substitute: body.substitute ?? line.substitute,
        unitPriceCents:
          body.estimatedPrice === undefined
            ? line.unitPriceCents
            : toCents(body.estimatedPrice ?? 0),
      };
      const fields = (
        [
          ["name", next.name !== line.name],
          ["note", next.note !== line.note],
          ["substitute", next.substitute !== line.substitute],
          ["estimatedPrice", next.unitPriceCents !== line.unitPriceCents],
        ] as const
      )
        .filter(([, changed]) => changed)
        .map(([field]) => field);
      if (fields.length === 0) return { result: null, version: "unchanged" };
      const [updated] = await executeRows<{ marked: boolean }>(
        tx,
        sql`update cart_lines set note = ${next.note}, substitute = ${next.substitute},
            name = ${line.free ? next.name : null},
            unit_price_cents = ${line.free ? next.unitPriceCents : line.unitPriceCents},
            updated_at = ${now}
          where id = ${lineId}
          returning ${anyReady} as marked`,
      );
      return {
        // Only a new estimate moves the totals, and so perhaps a ready mark.
        result: { marked: fields.includes("estimatedPrice") && updated!.marked },
        activity: {
          type: "item.edited",
          details: { productId: line.productId, product: next.name, lineOf: line.lineOf, fields },
        },
      };
    },
    (edited, session, lockedCartId) =>
      edited ? cartChanged(session.id, lockedCartId, session.version, edited.marked) : [],
  );
  return answer(deps, cartId, user);
}
