import {
  ErrorCode,
  fromCents,
  QUANTITY_MAX,
  splitCart,
  type Cart,
  type CartLine,
  type Member,
  type Role,
  type SessionStatus,
  type SessionSummary,
  type User,
} from "@cartner/contract";
import { and, asc, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import {
  cartLines,
  carts,
  products,
  sessionMembers,
  sessions as sessionsTable,
  users,
} from "../../db/schema.ts";
import type { Clock } from "../../lib/clock.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { imageFileName } from "../products/catalog.ts";
import type { EventBus } from "../realtime/bus.ts";
import { avatarUrl, type SessionService } from "../sessions/service.ts";

const conflict = (message: string) => new AppError(409, ErrorCode.CONFLICT, message);
const forbidden = (message: string) => new AppError(403, ErrorCode.FORBIDDEN, message);
const cartNotFound = () => notFound("Cart not found");

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The price a line is charged at: frozen once the session ended, else the product's current one. */
const unitPrice = sql<number>`coalesce(${cartLines.unitPriceCents}, ${products.priceCents})`;

export function createCartService(deps: {
  db: Db;
  clock: Clock;
  sessions: SessionService;
  /** Told of every committed cart change (never of a rolled-back one). */
  events: Pick<EventBus, "publish">;
}) {
  const { db, clock, sessions, events } = deps;

  async function linesOf(cartIds: string[]) {
    if (cartIds.length === 0) return [];
    return db
      .select({
        id: cartLines.id,
        cartId: cartLines.cartId,
        quantity: cartLines.quantity,
        addedAt: cartLines.addedAt,
        unitPrice,
        productId: products.id,
        productName: products.name,
        slug: products.slug,
        imageHash: products.imageHash,
        color: products.color,
        userId: users.id,
        userName: users.name,
      })
      .from(cartLines)
      .innerJoin(products, eq(products.id, cartLines.productId))
      .innerJoin(users, eq(users.id, cartLines.addedBy))
      .where(inArray(cartLines.cartId, cartIds))
      .orderBy(asc(cartLines.addedAt), asc(cartLines.id));
  }
  type LineRow = Awaited<ReturnType<typeof linesOf>>[number];

  type CartRow = typeof carts.$inferSelect;
  type SessionRow = typeof sessionsTable.$inferSelect;

  function build(session: SessionRow, members: Member[], cart: CartRow, lines: LineRow[]): Cart {
    const creator = members.find((m) => m.role === "creator");
    const products: CartLine[] = lines.map((l) => ({
      _id: l.id,
      productId: {
        _id: l.productId,
        name: l.productName,
        price: fromCents(Number(l.unitPrice)),
        imageUrl: `/api/catalog/images/${imageFileName(l.slug, l.imageHash)}`,
        ...(l.color ? { color: l.color } : {}),
      },
      quantity: l.quantity,
      addedBy: { _id: l.userId, name: l.userName },
      addedAt: l.addedAt.toISOString(),
      lineTotal: fromCents(Number(l.unitPrice) * l.quantity),
    }));
    const totalCents = lines.reduce((sum, l) => sum + Number(l.unitPrice) * l.quantity, 0);
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
          avatar: avatarUrl(session.creatorId),
        },
        invitedUsers: members,
      },
      products,
      totalPrice: fromCents(totalCents),
      itemCount: lines.reduce((sum, l) => sum + l.quantity, 0),
      version: session.version,
      createdAt: cart.createdAt.toISOString(),
      updatedAt: cart.updatedAt.toISOString(),
    };
  }

  /**
   * One query for the cart, its session and the caller's role. Anyone not a member (pending
   * included) gets 404; a member without the needed role gets 403 (DESIGN section 4). Inside a
   * write transaction the same query also locks the cart row.
   */
  async function load(
    where: { cartId: string } | { sessionId: string },
    userId: string,
    allowed: readonly Role[] = ["creator", "participant", "viewer"],
    lockIn?: Tx,
  ) {
    const query = (lockIn ?? db)
      .select({ cart: carts, session: sessionsTable, role: sessionMembers.role })
      .from(carts)
      .innerJoin(sessionsTable, eq(sessionsTable.id, carts.sessionId))
      .leftJoin(
        sessionMembers,
        and(eq(sessionMembers.sessionId, carts.sessionId), eq(sessionMembers.userId, userId)),
      )
      .where("cartId" in where ? eq(carts.id, where.cartId) : eq(carts.sessionId, where.sessionId));
    const [row] = await (lockIn ? query.for("update", { of: carts }) : query);
    if (!row?.role || row.role === "pending") {
      throw "cartId" in where ? cartNotFound() : notFound("Session not found");
    }
    if (!allowed.includes(row.role)) {
      throw forbidden(
        row.role === "viewer"
          ? "Viewers can see the cart but not change it."
          : "Only the session's creator can do that.",
      );
    }
    return { cart: row.cart, session: row.session, role: row.role };
  }

  async function render(cart: CartRow, session: SessionRow): Promise<Cart> {
    const members = (await sessions.membersOf([session.id])).get(session.id) ?? [];
    return build(session, members, cart, await linesOf([cart.id]));
  }

  async function list(userId: string, status: SessionStatus): Promise<Cart[]> {
    const rows = await db
      .select({ cart: carts, session: sessionsTable })
      .from(sessionMembers)
      .innerJoin(sessionsTable, eq(sessionsTable.id, sessionMembers.sessionId))
      .innerJoin(carts, eq(carts.sessionId, sessionsTable.id))
      .where(
        and(
          eq(sessionMembers.userId, userId),
          ne(sessionMembers.role, "pending"),
          eq(sessionsTable.status, status),
        ),
      )
      .orderBy(desc(carts.updatedAt));
    if (rows.length === 0) return [];
    const members = await sessions.membersOf(rows.map((r) => r.session.id));
    const lines = await linesOf(rows.map((r) => r.cart.id));
    return rows.map((r) =>
      build(
        r.session,
        members.get(r.session.id) ?? [],
        r.cart,
        lines.filter((l) => l.cartId === r.cart.id),
      ),
    );
  }

  async function get(cartId: string, userId: string): Promise<Cart> {
    const { cart, session } = await load({ cartId }, userId);
    return render(cart, session);
  }

  async function getBySession(sessionId: string, userId: string): Promise<Cart> {
    const { cart, session } = await load({ sessionId }, userId);
    return render(cart, session);
  }

  /**
   * Runs one cart change in a transaction that first locks the cart row, so changes to one cart
   * are applied one at a time (50 concurrent +1s give +50), then bumps the session's version.
   * Few statements on purpose: the embedded database runs one statement at a time for everyone.
   */
  async function change(
    cartId: string,
    user: User,
    apply: (tx: Tx, ctx: { role: Role }) => Promise<void>,
    allowed: readonly Role[] = ["creator", "participant"],
  ): Promise<Cart> {
    const { cart, session } = await db.transaction(async (tx) => {
      const { cart, session, role } = await load({ cartId }, user._id, allowed, tx);
      if (cart.status !== "active")
        throw conflict("This session has ended; its cart is read-only.");
      await apply(tx, { role });
      const now = clock.now();
      // Both drivers answer raw SQL with { rows }; Db's driver-neutral type does not say so.
      const { rows } = (await tx.execute(sql`
        with touched as (
          update ${carts} set ${sql.identifier(carts.updatedAt.name)} = ${now}
          where ${carts.id} = ${cartId}
        )
        update ${sessionsTable}
        set ${sql.identifier(sessionsTable.version.name)} = ${sessionsTable.version} + 1,
            ${sql.identifier(sessionsTable.updatedAt.name)} = ${now}
        where ${sessionsTable.id} = ${session.id}
        returning ${sessionsTable.version} as version`)) as unknown as {
        rows: Array<{ version: number }>;
      };
      return {
        cart: { ...cart, updatedAt: now },
        session: { ...session, version: Number(rows[0]!.version), updatedAt: now },
      };
    });
    events.publish({
      event: { type: "cart.updated", sessionId: session.id, cartId, version: session.version },
      members: session.id,
    });
    return render(cart, session);
  }

  /** Throws unless `adding` more of the product fit its stock, counting every member's lines. */
  async function checkStock(
    tx: Tx,
    cartId: string,
    productId: string,
    adding: number,
    userId: string,
  ): Promise<{ own: number }> {
    const [row] = await tx
      .select({
        stock: products.stock,
        inCart: sql<number>`coalesce(sum(${cartLines.quantity}), 0)`,
        own: sql<number>`coalesce(sum(${cartLines.quantity}) filter (where ${cartLines.addedBy} = ${userId}), 0)`,
      })
      .from(products)
      .leftJoin(cartLines, and(eq(cartLines.productId, products.id), eq(cartLines.cartId, cartId)))
      .where(eq(products.id, productId))
      .groupBy(products.id);
    if (!row) throw notFound("Product not found.");
    const already = Number(row.inCart);
    if (already + adding > row.stock) {
      throw conflict(
        row.stock === 0
          ? "This product is out of stock."
          : `Only ${row.stock} in stock${already ? `, and ${already} already in this cart` : ""}.`,
      );
    }
    return { own: Number(row.own) };
  }

  /** The line a call acts on: lineId (creator: anyone's), else the caller's own line. */
  async function findLine(
    tx: Tx,
    cartId: string,
    productId: string,
    user: User,
    role: string,
    lineId?: string,
  ) {
    const [line] = await tx
      .select()
      .from(cartLines)
      .where(
        and(
          eq(cartLines.cartId, cartId),
          eq(cartLines.productId, productId),
          lineId ? eq(cartLines.id, lineId) : eq(cartLines.addedBy, user._id),
        ),
      );
    if (!line) throw notFound("That item is not in the cart.");
    if (line.addedBy !== user._id && role !== "creator") {
      throw forbidden("You can change only the items you added.");
    }
    return line;
  }

  function add(cartId: string, user: User, productId: string, quantity: number) {
    return change(cartId, user, async (tx) => {
      const { own } = await checkStock(tx, cartId, productId, quantity, user._id);
      if (own + quantity > QUANTITY_MAX) {
        throw conflict(`A line holds at most ${QUANTITY_MAX} of a product.`);
      }
      const now = clock.now();
      await tx
        .insert(cartLines)
        .values({ cartId, productId, addedBy: user._id, quantity, addedAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: [cartLines.cartId, cartLines.productId, cartLines.addedBy],
          set: { quantity: sql`${cartLines.quantity} + ${quantity}`, updatedAt: now },
        });
    });
  }

  function changeQuantity(
    cartId: string,
    user: User,
    productId: string,
    delta: 1 | -1,
    lineId?: string,
  ) {
    return change(cartId, user, async (tx, { role }) => {
      const line = await findLine(tx, cartId, productId, user, role, lineId);
      if (delta === -1 && line.quantity <= 1) return; // minus at 1 does nothing (SPEC 5)
      if (delta === 1) {
        if (line.quantity >= QUANTITY_MAX)
          throw conflict(`A line holds at most ${QUANTITY_MAX} of a product.`);
        await checkStock(tx, cartId, productId, 1, user._id);
      }
      await tx
        .update(cartLines)
        .set({ quantity: sql`${cartLines.quantity} + ${delta}`, updatedAt: clock.now() })
        .where(eq(cartLines.id, line.id));
    });
  }

  function removeLine(cartId: string, user: User, productId: string, lineId?: string) {
    return change(cartId, user, async (tx, { role }) => {
      // Delete first and check after: a refusal throws, which rolls the delete back.
      const [line] = await tx
        .delete(cartLines)
        .where(
          and(
            eq(cartLines.cartId, cartId),
            eq(cartLines.productId, productId),
            lineId ? eq(cartLines.id, lineId) : eq(cartLines.addedBy, user._id),
          ),
        )
        .returning({ addedBy: cartLines.addedBy });
      if (!line) throw notFound("That item is not in the cart.");
      if (line.addedBy !== user._id && role !== "creator") {
        throw forbidden("You can change only the items you added.");
      }
    });
  }

  function clear(cartId: string, user: User) {
    return change(
      cartId,
      user,
      async (tx) => {
        await tx.delete(cartLines).where(eq(cartLines.cartId, cartId));
      },
      ["creator"],
    );
  }

  /** Deleting a cart ends its session: the cart is kept as history (DESIGN: nothing is deleted). */
  async function remove(cartId: string, user: User) {
    const { session } = await load({ cartId }, user._id, ["creator"]);
    await sessions.end(session.id, user._id);
    return { message: "Cart deleted; the session has ended." };
  }

  async function summary(sessionId: string, userId: string): Promise<SessionSummary> {
    const { cart, session } = await load({ sessionId }, userId);
    const members = (await sessions.membersOf([session.id])).get(session.id) ?? [];
    const lines = await linesOf([cart.id]);
    const { summary: totals, shares } = splitCart(
      lines.map((l) => ({
        userId: l.userId,
        name: l.userName,
        lineTotal: Number(l.unitPrice) * l.quantity,
      })),
    );
    return {
      sessionName: session.name,
      participants: members
        .filter((m) => m.role !== "pending")
        .map((m) => ({ _id: m.userId, name: m.name })),
      cartItems: lines.map((l) => ({
        product: {
          _id: l.productId,
          name: l.productName,
          price: fromCents(Number(l.unitPrice)),
          imageUrl: `/api/catalog/images/${imageFileName(l.slug, l.imageHash)}`,
        },
        quantity: l.quantity,
        addedBy: { _id: l.userId, name: l.userName },
      })),
      split: shares.map((s) => ({
        userId: s.userId,
        name: s.name,
        subtotal: fromCents(s.subtotal),
        fees: fromCents(s.fees),
        tax: fromCents(s.tax),
        total: fromCents(s.total),
      })),
      subtotal: fromCents(totals.subtotal),
      fees: fromCents(totals.fees),
      tax: fromCents(totals.tax),
      total: fromCents(totals.total),
    };
  }

  return { list, get, getBySession, add, changeQuantity, removeLine, clear, remove, summary };
}

export type CartService = ReturnType<typeof createCartService>;
