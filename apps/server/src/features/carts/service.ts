import type { User } from "@cartner/contract";
import type { Database, Db } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Media } from "../../lib/media.ts";
import type { NotificationService } from "../notifications/index.ts";
import type { EventBus } from "../live/index.ts";
import type { SessionService } from "../sessions/index.ts";
import { createLineSharing } from "./line-sharing.ts";
import { createLineStaple } from "./line-staple.ts";
import { createLineWrites } from "./line-writes.ts";
import { createCartReads } from "./reads.ts";

/**
 * The carts service: reads and the summary (reads.ts, view.ts), line writes by cart_write()
 * (line-writes.ts), who shares a line (line-sharing.ts), staple lines (line-staple.ts), and deleting a cart, which ends its
 * session.
 */
export function createCartService(deps: {
  /** The session write path's transactions (line sharing). */
  db: Db;
  /** Every cart read and line write is one statement (decision 004). */
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
  /** Told of every committed change, so the session's other members hear of it. */
  notices?: Pick<NotificationService, "cartChanged">;
}) {
  const reads = createCartReads(deps);
  const lineWrites = createLineWrites(deps);
  const { setSharedWith } = createLineSharing({ ...deps, reads });
  const { setStaple } = createLineStaple({ ...deps, reads });

  /** Deleting a cart ends its session: the cart is kept as history (a session's history is never deleted). */
  async function remove(cartId: string, user: User) {
    const { session } = await reads.access({ cartId }, user._id, "cart.delete");
    await deps.sessions.end(session.id, user._id);
    return { message: "Cart deleted; the session has ended." };
  }

  return {
    list: reads.list,
    get: reads.get,
    getBySession: reads.getBySession,
    summary: reads.summary,
    ...lineWrites,
    setSharedWith,
    setStaple,
    remove,
  };
}

export type CartService = ReturnType<typeof createCartService>;
