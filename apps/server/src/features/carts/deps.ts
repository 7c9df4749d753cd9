import type { Database, Db } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Media } from "../../lib/media.ts";
import type { EventBus } from "../live/index.ts";
import type { NotificationDeps } from "../notifications/index.ts";
import type { CartWriteQueue } from "./write-queue.ts";

/** What the cart functions need, built once in src/services.ts. */
export interface CartDeps {
  /** The session write path's transactions (line sharing, staple lines). */
  db: Db;
  /** Every cart read and line write is one statement (decision 004). */
  rows: Database["rows"];
  clock: Clock;
  /** Told of every committed cart change (never of a refused one). */
  events: Pick<EventBus, "publish">;
  media: Media;
  /** The line writes' group-commit queue (write-queue.ts), created once. */
  writes: CartWriteQueue;
  /** Told of every committed change, so the session's other members hear of it. */
  notices?: NotificationDeps | undefined;
}
