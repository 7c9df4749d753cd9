import {
  ErrorCode,
  fromCents,
  orderNumber,
  QUANTITY_MAX,
  RESTORE_WINDOW_SECONDS,
  DEFAULT_SPLIT_POLICY,
  shareWithBudget,
  SHARE_CARRYING_ROLES,
  splitShares,
  type ShareCents,
  type Action,
  type Cart,
  type CartLine,
  type CartView,
  type CartWriteBatchResult,
  type CartWriteResult,
  type Member,
  type Role,
  type SessionStatus,
  type SessionSummary,
  type User,
} from "@cartner/contract";
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { carts, sessionMembers, sessions as sessionsTable } from "../../db/schema.ts";
import type { Clock } from "../../lib/clock.ts";
import { AppError, conflict, notFound } from "../../lib/errors.ts";
import { refusalError, requireAllowed, visibleMembers } from "../../lib/permissions.ts";
import type { EventBus } from "../realtime/bus.ts";
import { groupCommit, groupCommitBy } from "../../lib/group-commit.ts";
import { announceActivity } from "../sessions/activity.ts";
import { readyMark } from "../sessions/ready.ts";
import type { SessionService } from "../sessions/service.ts";
import type { Media } from "../../lib/media.ts";

const cartNotFound = () => notFound("Cart not found");

/** What cart_view() answers (the contract's CartViewSchema): everything a cart answer shows. */
export type { CartView };

/** cart_write()'s answer (a batch's row also carries its error): the contract's schemas. */
type WriteResult = CartWriteResult & Partial<Pick<CartWriteBatchResult, "error">>;

type WriteOp = "add" | "step" | "remove" | "restore" | "clear";

/** One cart_write() call's arguments, as cart_write_batch() reads them (db/functions). */
interface WriteCall {
  op: WriteOp;
  cart: string;
  user: string;
  product: string | null;
  line: string | null;
  amount: number | null;
  now: string;
}

/** cart_write()'s refusal, worded by the permissions table; a table that allows it is a bug. */
function refusedBy(role: Role, action: Action, verdict: string): Error {
  return (
    refusalError(role, action, "Cart not found") ??
    new Error(`cart_write() refused (${verdict}) what the permissions table allows (${action})`)
  );
}

/** The permissions table's action behind each cart_write() operation. */
const ACTION_OF: Record<WriteOp, Action> = {
  add: "cart.add",
  step: "cart.changeOwnLine",
  remove: "cart.changeOwnLine",
  restore: "cart.changeOwnLine",
  clear: "cart.clear",
};

/**
 * The cart's split by the one split function (the summary and, later, the order use it too),
 * with the session's policy; every paying member appears, at zero until they carry something.
 */
export function splitOf(view: CartView) {
  return splitShares(
    view.lines.map((l) => ({
      lineTotal: l.unitPriceCents * l.quantity,
      addedBy: l.userId,
      addedByName: l.userName,
      sharedWith: l.sharedWith.map((u) => u._id),
    })),
    view.members,
    view.session.splitPolicy ?? DEFAULT_SPLIT_POLICY,
  );
}

/** A member's share against their own budget. */
function shareOf(s: ShareCents, members: CartView["members"]) {
  return shareWithBudget(s, members.find((m) => m.userId === s.userId)?.budgetCents ?? null);
}

function build(view: CartView, viewerId: string, media: Media): Cart {
  const { cart, session, lines } = view;
  const { shares } = splitOf(view);
  const members: Member[] = visibleMembers(view.members, viewerId).map(
    ({ budgetCents, readyTotalCents, ready, ...m }) => ({
      ...m,
      avatar: media.userAvatar(m.userId),
      budget: budgetCents === null ? null : fromCents(budgetCents),
      ...readyMark({ ...m, ready, readyTotalCents }, shares),
    }),
  );
  const creator = members.find((m) => m.role === "creator");
  const products: CartLine[] = lines.map((l) => ({
    _id: l.id,
    productId: {
      _id: l.productId,
      name: l.productName,
      price: fromCents(l.unitPriceCents),
      imageUrl: media.productImage(l.slug, l.imageHash),
      ...(l.color ? { color: l.color } : {}),
    },
    quantity: l.quantity,
    addedBy: { _id: l.userId, name: l.userName },
    addedAt: new Date(l.addedAt).toISOString(),
    lineTotal: fromCents(l.unitPriceCents * l.quantity),
    sharedWith: l.sharedWith,
  }));
  return {
    _id: cart.id,
    status: cart.status,
    sessionId: {
      _id: session.id,
      sessionName: session.name,
      status: session.status,
      creator: {
        _id: session.creatorId,
        name: creator?.name ?? "Unknown",
        avatar: media.userAvatar(session.creatorId),
      },
      invitedUsers: members,
    },
    products,
    totalPrice: fromCents(lines.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0)),
    itemCount: lines.reduce((sum, l) => sum + l.quantity, 0),
    split: shares.map((share) => shareOf(share, view.members)),
    version: session.version,
    createdAt: new Date(cart.createdAt).toISOString(),
    updatedAt: new Date(cart.updatedAt).toISOString(),
  };
}

export function createCartService(deps: {
  /** Every cart read and write is one statement (decision 004). */
  rows: Database["rows"];
  clock: Clock;
  sessions: SessionService;
  /** Told of every committed cart change (never of a refused one). */
  events: Pick<EventBus, "publish">;
  media: Media;
  /**
   * How changes that queue up go in: as one statement and one commit per batch (decision 012).
   * "all": one batch at a time for every cart (the embedded database runs one statement at a
   * time anyway); "per-cart": one batch at a time per cart, carts side by side (PostgreSQL: a
   * change waiting for its cart holds no pool connection).
   */
  batching: "all" | "per-cart";
}) {
  const { rows, clock, sessions, events, media } = deps;

  const writeOne = async (call: WriteCall): Promise<WriteResult> => {
    const [result] = await rows<WriteResult>(sql`
      select * from cart_write(${call.op}::text, ${call.cart}::uuid, ${call.user}::uuid,
        ${call.product}::uuid, ${call.line}::uuid, ${call.amount}::integer,
        ${QUANTITY_MAX}::integer, ${call.now}::timestamptz)`);
    return result!;
  };
  const runBatch = async (calls: WriteCall[]) => {
    if (calls.length === 1) return [await writeOne(calls[0]!)];
    const results = await rows<WriteResult>(
      sql`select * from cart_write_batch(${JSON.stringify(calls)}::json, ${QUANTITY_MAX}::integer)`,
    );
    // A cart's view comes once, on the row of its last change in the batch (cart_write_batch.sql); its
    // earlier changes answer with it too.
    const lastView = new Map<string, CartView>();
    for (let i = results.length - 1; i >= 0; i--) {
      const result = results[i]!;
      if (result.verdict !== "ok" && result.verdict !== "unchanged") continue;
      if (result.view) lastView.set(calls[i]!.cart, result.view);
      else result.view = lastView.get(calls[i]!.cart) ?? null;
    }
    return results;
  };
  const callCartWrite =
    deps.batching === "all"
      ? groupCommit(runBatch)
      : groupCommitBy((call: WriteCall) => call.cart, runBatch);

  /**
   * The cart (by its id or its session's) with the caller's role, in one query. Anyone not a
   * member (pending included) gets 404; a member without the needed role gets 403 (DESIGN 4).
   */
  async function access(
    where: { cartId: string } | { sessionId: string },
    userId: string,
    action: Action = "session.read",
  ): Promise<CartView> {
    const [row] = await rows<{ role: Role | null; view: CartView }>(sql`
      select ${sessionMembers.role} as role,
        case when ${sessionMembers.role} <> 'pending' then cart_view(${carts.id}) end as view
      from ${carts}
      left join ${sessionMembers}
        on ${sessionMembers.sessionId} = ${carts.sessionId} and ${sessionMembers.userId} = ${userId}
      where ${"cartId" in where ? eq(carts.id, where.cartId) : eq(carts.sessionId, where.sessionId)}`);
    requireAllowed(row?.role, action, "cartId" in where ? "Cart not found" : "Session not found");
    return row!.view;
  }

  async function list(userId: string, status: SessionStatus): Promise<Cart[]> {
    const views = await rows<{ view: CartView }>(sql`
      select cart_view(${carts.id}) as view
      from ${sessionMembers}
      join ${sessionsTable} on ${sessionsTable.id} = ${sessionMembers.sessionId}
      join ${carts} on ${carts.sessionId} = ${sessionsTable.id}
      where ${and(
        eq(sessionMembers.userId, userId),
        ne(sessionMembers.role, "pending"),
        eq(sessionsTable.status, status),
      )}
      order by ${carts.updatedAt} desc`);
    return views.map((r) => build(r.view, userId, media));
  }

  async function get(cartId: string, userId: string): Promise<Cart> {
    return build(await access({ cartId }, userId), userId, media);
  }

  async function getBySession(sessionId: string, userId: string): Promise<Cart> {
    return build(await access({ sessionId }, userId), userId, media);
  }

  /**
   * One cart change as one call of cart_write(), which locks the cart row, applies DESIGN
   * section 4's rules, writes, bumps the session's version and answers the new view, all in one
   * statement: the embedded database runs one statement at a time for the whole process, so a
   * change used to wait behind every other request eight times (docs/decisions/004).
   */
  async function write(
    op: WriteOp,
    cartId: string,
    user: User,
    target: { productId?: string; lineId?: string | undefined; amount?: number } = {},
  ): Promise<Cart> {
    const result = await callCartWrite({
      op,
      cart: cartId,
      user: user._id,
      product: target.productId ?? null,
      line: target.lineId ?? null,
      amount: target.amount ?? null,
      now: clock.now().toISOString(),
    });
    const { verdict, view } = result;
    switch (verdict) {
      case "ok":
      case "unchanged":
        break;
      case "no_cart":
        throw cartNotFound();
      // cart_write() applies the permissions table's rules itself (one statement per change);
      // the messages come from the table, and authorization.test.ts proves the two agree.
      case "viewer":
        throw refusedBy("viewer", ACTION_OF[op], verdict);
      case "not_creator":
        throw refusedBy("participant", ACTION_OF[op], verdict);
      case "ended":
        throw await endedError(cartId);
      case "no_product":
        throw notFound("Product not found.");
      case "no_line":
        throw notFound("That item is not in the cart.");
      case "not_own":
        throw refusedBy("participant", "cart.changeAnyLine", verdict);
      case "line_full":
        throw conflict(`A line holds at most ${QUANTITY_MAX} of a product.`);
      case "no_removal":
        throw conflict("That removal can no longer be undone.");
      case "line_exists":
        throw conflict("That item is in the cart again on its own line; change that line instead.");
      case "stock": {
        const stock = result.product_stock!;
        const already = result.already_in_cart!;
        throw conflict(
          stock === 0
            ? "This product is out of stock."
            : `Only ${stock} in stock${already ? `, and ${already} already in this cart` : ""}.`,
        );
      }
      case "error":
        throw new Error(`cart_write() failed in a batch: ${result.error}`);
      default:
        throw new Error(`cart_write answered an unknown verdict: ${verdict satisfies never}`);
    }
    if (verdict === "ok") {
      const { session, members } = view!;
      announceCartChange(
        session.id,
        cartId,
        session.version,
        members.some((m) => m.ready),
      );
    }
    return build(view!, user._id, media);
  }

  /**
   * After a committed cart change: cart.updated, and session.updated too while a member's ready
   * mark is set (`marked`), since the change may have moved their share's total and so cleared
   * their mark (API.md).
   */
  function announceCartChange(sessionId: string, cartId: string, version: number, marked: boolean) {
    const types = marked
      ? (["cart.updated", "session.updated"] as const)
      : (["cart.updated"] as const);
    for (const type of types) {
      events.publish({ event: { type, sessionId, cartId, version }, members: sessionId });
    }
    announceActivity(events, sessionId);
  }

  /** A checked-out cart is an order now (409 CART_LOCKED); any other ended one is history. */
  async function endedError(cartId: string): Promise<AppError> {
    const [order] = await rows<{ number: number }>(
      sql`select number from orders where cart_id = ${cartId}`,
    );
    return order
      ? new AppError(
          409,
          ErrorCode.CART_LOCKED,
          `This cart was checked out as order ${orderNumber(order.number)}; it changes no more.`,
        )
      : conflict("This session has ended; its cart is read-only.");
  }

  function add(cartId: string, user: User, productId: string, quantity: number) {
    return write("add", cartId, user, { productId, amount: quantity });
  }

  function changeQuantity(
    cartId: string,
    user: User,
    productId: string,
    delta: 1 | -1,
    lineId?: string,
  ) {
    return write("step", cartId, user, { productId, lineId, amount: delta });
  }

  function removeLine(cartId: string, user: User, productId: string, lineId?: string) {
    return write("remove", cartId, user, { productId, lineId });
  }

  /**
   * Undo of a removal: the line comes back as it was (its id, adder, quantity, sharers), so who
   * pays for it is unchanged; only for the member who removed it, within RESTORE_WINDOW_SECONDS.
   */
  function restoreLine(cartId: string, user: User, lineId: string) {
    return write("restore", cartId, user, { lineId, amount: RESTORE_WINDOW_SECONDS });
  }

  function clear(cartId: string, user: User) {
    return write("clear", cartId, user);
  }

  /** Deleting a cart ends its session: the cart is kept as history (DESIGN: nothing is deleted). */
  async function remove(cartId: string, user: User) {
    const { session } = await access({ cartId }, user._id, "cart.delete");
    await sessions.end(session.id, user._id);
    return { message: "Cart deleted; the session has ended." };
  }

  async function summary(sessionId: string, userId: string): Promise<SessionSummary> {
    const view = await access({ sessionId }, userId);
    const { session, members, lines } = view;
    const { summary: totals, shares } = splitOf(view);
    return {
      sessionName: session.name,
      participants: members
        .filter((m) => m.role !== "pending")
        .map((m) => ({ _id: m.userId, name: m.name })),
      cartItems: lines.map((l) => ({
        product: {
          _id: l.productId,
          name: l.productName,
          price: fromCents(l.unitPriceCents),
          imageUrl: media.productImage(l.slug, l.imageHash),
        },
        quantity: l.quantity,
        addedBy: l.userName,
        addedById: l.userId,
      })),
      // Those who carry something (everyone's running total is on the cart).
      split: shares.filter((share) => share.total > 0).map((share) => shareOf(share, members)),
      subtotal: fromCents(totals.subtotal),
      fees: fromCents(totals.fees),
      tax: fromCents(totals.tax),
      total: fromCents(totals.total),
    };
  }

  /**
   * Who shares a line in equal parts: its adder or the creator picks creators and participants of
   * the session; [] gives the line back to the session's policy.
   */
  async function setSharedWith(cartId: string, user: User, lineId: string, userIds: string[]) {
    const [found] = await rows<{
      addedBy: string | null;
      sessionId: string;
      status: SessionStatus;
      role: Role | null;
    }>(sql`
      select l.added_by as "addedBy", s.id as "sessionId", s.status, m.role
      from ${carts} c
      join ${sessionsTable} s on s.id = c.session_id
      left join ${sessionMembers} m on m.session_id = s.id and m.user_id = ${user._id}
      left join cart_lines l on l.cart_id = c.id and l.id = ${lineId}
      where c.id = ${cartId}`);
    requireAllowed(found?.role, "cart.changeOwnLine", "Cart not found");
    if (!found!.addedBy) throw notFound("That item is not in the cart.");
    if (found!.addedBy !== user._id)
      requireAllowed(found!.role, "cart.changeAnyLine", "Cart not found");
    if (found!.status !== "active") throw await endedError(cartId);
    const unique = [...new Set(userIds)];
    if (unique.length !== userIds.length) {
      throw new AppError(400, ErrorCode.VALIDATION, "Invalid userIds: each member once", {
        fields: { userIds: "Each member once" },
      });
    }
    const payers = await rows<{ userId: string }>(sql`
      select user_id as "userId" from ${sessionMembers}
      where session_id = ${found!.sessionId} and ${inArray(sessionMembers.role, [...SHARE_CARRYING_ROLES])}`);
    const paying = new Set(payers.map((p) => p.userId));
    if (unique.some((id) => !paying.has(id))) {
      throw new AppError(
        400,
        ErrorCode.VALIDATION,
        "Invalid userIds: a line is shared by the session's creator and participants",
        { fields: { userIds: "Only the creator and participants can share a line" } },
      );
    }
    // The cart row is locked first, as by every cart change and by checkout: a change racing a
    // checkout either lands before its snapshot or finds the cart completed (re-read after the
    // lock wait) and changes nothing.
    const [updated] = await rows<{ version: number; marked: boolean }>(sql`
      with line as (
        update cart_lines set shared_with = ${`{${unique.join(",")}}`}::uuid[], updated_at = ${clock.now()}
        where id = ${lineId}
          and cart_id = (select id from ${carts} where id = ${cartId} and status = 'active' for update)
        returning id, product_id),
      logged as (
        insert into activity (session_id, at, actor_id, actor_name, type, details)
        select ${found!.sessionId}, ${clock.now()}, u.id, u.name, 'item.shared',
          jsonb_build_object('productId', p.id, 'product', p.name, 'with',
            (select coalesce(jsonb_agg(su.name order by su.name), '[]'::jsonb)
             from users su where su.id = any(${`{${unique.join(",")}}`}::uuid[])))
        from line join products p on p.id = line.product_id, users u where u.id = ${user._id}
        returning seq)
      update ${sessionsTable} set version = version + 1, updated_at = ${clock.now()}
      where id = ${found!.sessionId} and exists (select 1 from line)
      returning version, exists (select 1 from ${sessionMembers}
        where ${sessionMembers.sessionId} = ${found!.sessionId} and ${sessionMembers.ready}) as marked`);
    if (!updated) throw await endedError(cartId);
    announceCartChange(found!.sessionId, cartId, updated.version, updated.marked);
    return build(await access({ cartId }, user._id), user._id, media);
  }

  return {
    list,
    get,
    getBySession,
    add,
    changeQuantity,
    removeLine,
    restoreLine,
    clear,
    remove,
    summary,
    setSharedWith,
  };
}

export type CartService = ReturnType<typeof createCartService>;
