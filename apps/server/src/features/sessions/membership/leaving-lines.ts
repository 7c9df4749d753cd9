/**
 * What becomes of a member's cart lines when they leave a session (removed, leaving, or their
 * account deleted): nobody who is not a member has a share in a cart or an order, so the lines
 * they added are removed or given to a creator or participant who stays, and they leave every
 * line's sharers. Runs inside the leaving write's transaction, after the session's lock.
 */
import {
  ErrorCode,
  leavingWithLinesMessage,
  QUANTITY_MAX,
  type MemberLinesQuery,
} from "@cartner/contract";
import { sql } from "drizzle-orm";
import { executeRows, type Tx } from "../../../db/client.ts";
import { AppError, conflict, invalidFields } from "../../../lib/errors.ts";
import type { Published } from "../../live/index.ts";
import { toMembers, type SessionRow, type TypedEntry } from "../lifecycle/write.ts";

interface LeavingLine {
  id: string;
  /** Null on a free line. */
  productId: string | null;
  product: string;
  quantity: number;
  staple: boolean;
  /** Members the line is hidden from (a private line): its entries are too. */
  hiddenFrom: string[];
  /** Whether it waits for approval (decision 048). */
  waiting: boolean;
}

export interface LinesTaken {
  /** The entries of what happened to each line (none when they had none). */
  activity: TypedEntry[];
  /** Whether any line or any line's sharers changed: shares move, so members refetch. */
  cartChanged: boolean;
}

/**
 * Takes `leaver`'s lines out of the session's active cart as `choice` says, or refuses with 409
 * MEMBER_HAS_LINES `{ lines }` when they have some and no choice was made. `self`: the leaver asks
 * (the refusal says "You"). A cart that is no longer active keeps its lines: it is history.
 */
export async function takeLinesOf(
  tx: Tx,
  target: {
    cartId: string;
    leaver: { id: string; name: string };
    choice: MemberLinesQuery;
    reason: "member_left" | "account_deleted";
    self: boolean;
    now: Date;
  },
): Promise<LinesTaken> {
  const { cartId, leaver, choice, now } = target;
  const [cart] = await executeRows<{ status: string; sessionId: string }>(
    tx,
    sql`select status, session_id as "sessionId" from carts where id = ${cartId}`,
  );
  if (!cart || cart.status !== "active") return { activity: [], cartChanged: false };

  const lines = await executeRows<LeavingLine>(
    tx,
    sql`select l.id, l.product_id as "productId", coalesce(p.name, l.name) as product,
        l.quantity, l.staple, l.hidden_from as "hiddenFrom", l.pending_at is not null as waiting
      from cart_lines l left join products p on p.id = l.product_id
      where l.cart_id = ${cartId} and l.added_by = ${leaver.id}
      order by l.added_at, l.id`,
  );
  if (lines.length > 0 && choice.lines === undefined) {
    throw new AppError(
      409,
      ErrorCode.MEMBER_HAS_LINES,
      leavingWithLinesMessage(target.self ? null : leaver.name, lines.length),
      { details: { lines: lines.length } },
    );
  }

  const activity: TypedEntry[] =
    lines.length === 0
      ? []
      : choice.lines === "give"
        ? await giveLines(tx, cartId, cart.sessionId, leaver, choice.to!, lines, now)
        : await removeLines(tx, cartId, leaver, lines, target.reason);

  // They share nothing any more, and no undo brings their line or their part back.
  const unshared = await executeRows<{ id: string }>(
    tx,
    sql`update cart_lines set shared_with = array_remove(shared_with, ${leaver.id}::uuid),
        hidden_from = array_remove(hidden_from, ${leaver.id}::uuid)
      where cart_id = ${cartId}
        and (${leaver.id}::uuid = any(shared_with) or ${leaver.id}::uuid = any(hidden_from))
      returning id`,
  );
  await tx.execute(
    sql`delete from removed_lines where cart_id = ${cartId} and added_by = ${leaver.id}`,
  );
  await tx.execute(
    sql`update removed_lines set shared_with = array_remove(shared_with, ${leaver.id}::uuid)
      where cart_id = ${cartId} and ${leaver.id}::uuid = any(shared_with)`,
  );
  const cartChanged = lines.length > 0 || unshared.length > 0;
  if (cartChanged) {
    await tx.execute(sql`update carts set updated_at = ${now} where id = ${cartId}`);
  }
  return { activity, cartChanged };
}

/** After lines were taken: shares moved, so cart pages, split panels and ready marks refetch. */
export function linesTakenEvents(taken: boolean, session: SessionRow, cartId: string): Published[] {
  return taken
    ? (["cart.updated", "session.updated"] as const).map((type) =>
        toMembers(type, session, { cartId }),
      )
    : [];
}

async function removeLines(
  tx: Tx,
  cartId: string,
  leaver: { id: string; name: string },
  lines: LeavingLine[],
  reason: "member_left" | "account_deleted",
): Promise<TypedEntry[]> {
  await tx.execute(
    sql`delete from cart_lines where cart_id = ${cartId} and added_by = ${leaver.id}`,
  );
  return lines.map((l) => ({
    type: "item.removed" as const,
    details: {
      productId: l.productId,
      product: l.product,
      quantity: l.quantity,
      lineOf: leaver.name,
      reason,
    },
    lineId: l.id,
    hiddenFrom: l.hiddenFrom,
  }));
}

/**
 * The recipient becomes each line's adder. Where they already have a line of the product, the
 * two become one (their line, its sharers, the quantities added), as adding it again would; it
 * waits for approval when either of the two did.
 */
async function giveLines(
  tx: Tx,
  cartId: string,
  sessionId: string,
  leaver: { id: string; name: string },
  toId: string,
  lines: LeavingLine[],
  now: Date,
): Promise<TypedEntry[]> {
  const [to] = await executeRows<{ name: string; role: string }>(
    tx,
    sql`select u.name, m.role from session_members m join users u on u.id = m.user_id
      where m.session_id = ${sessionId} and m.user_id = ${toId}`,
  );
  if (!to || toId === leaver.id || (to.role !== "creator" && to.role !== "participant")) {
    throw invalidFields({ to: "Give the lines to the creator or a participant who stays" });
  }
  const entries: TypedEntry[] = [];
  for (const line of lines) {
    const [theirs] = await executeRows<{
      id: string;
      quantity: number;
      hiddenFrom: string[];
      waiting: boolean;
    }>(
      tx,
      sql`select id, quantity, hidden_from as "hiddenFrom", pending_at is not null as waiting
        from cart_lines where cart_id = ${cartId} and product_id = ${line.productId} and added_by = ${toId}`,
      // A free line (no product) is never merged: it simply changes hands.
    );
    if (theirs) {
      // The merged line is theirs, hidden from whom theirs was: it may not show the given units
      // to a member they were hidden from (the recipient, who now carries them, aside).
      const hiddenFromGiven = line.hiddenFrom.filter((id) => id !== toId && id !== leaver.id);
      if (hiddenFromGiven.some((id) => !theirs.hiddenFrom.includes(id))) {
        throw conflict(
          `${line.product} is private and cannot join ${to.name}'s items: show it to everyone or remove it first.`,
        );
      }
      if (theirs.quantity + line.quantity > QUANTITY_MAX) {
        throw conflict(
          `${to.name}'s line of ${line.product} would hold more than ${QUANTITY_MAX}: remove some first.`,
        );
      }
      // The whole line waits when either part waits (decision 048), since the earlier request:
      // units nobody approved never count by joining a counted line. least() skips a null.
      await tx.execute(
        sql`update cart_lines set quantity = quantity + ${line.quantity},
          staple = staple or ${line.staple}, updated_at = ${now},
          pending_at = least(pending_at, (select g.pending_at from cart_lines g where g.id = ${line.id}))
          where id = ${theirs.id}`,
      );
      await tx.execute(sql`delete from cart_lines where id = ${line.id}`);
      // A request for approval of the given line is now one for the line it joined.
      if (line.waiting)
        await tx.execute(
          sql`update notifications set line_id = ${theirs.id}
          where cart_id = ${cartId} and line_id = ${line.id}`,
        );
    } else {
      await tx.execute(
        // Never hidden from its adder: the recipient sees the line they now carry.
        sql`update cart_lines set added_by = ${toId}, updated_at = ${now},
          hidden_from = array_remove(hidden_from, ${toId}::uuid) where id = ${line.id}`,
      );
    }
    entries.push({
      type: "item.given",
      details: {
        productId: line.productId,
        product: line.product,
        quantity: line.quantity,
        lineOf: leaver.name,
        to: to.name,
        toId,
        // The line it became waits: it waited, or joined a waiting line (decision 048).
        ...(line.waiting || theirs?.waiting ? { pending: true as const } : {}),
      },
      lineId: theirs?.id ?? line.id,
    });
  }
  return entries;
}
