/**
 * What the notification functions need: the one deps object of the feature, built once in
 * `src/services.ts`. Other features hold it (as their `notices`) and pass it to `notify()`,
 * `later()` and `tellCartChange()`.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Database, Db } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";
import type { TrackJob } from "../../plugins/mail-jobs.ts";
import type { EventBus } from "../live/index.ts";
import type { Channel } from "./types.ts";

/**
 * The state notifications keep across calls, created once per app by `createNoticeState()`: the
 * cart notices in flight, one per (session, actor), with how many changes came while it ran:
 * those are told by one more notice naming the latest (feeds.ts `tellCartChange()`), so a burst of
 * writes costs a few notices, not one each, and a quiet cart's change is told at once.
 */
export interface NoticeState {
  telling: Map<string, { changes: number }>;
}

export function createNoticeState(): NoticeState {
  return { telling: new Map() };
}

export interface NotificationDeps {
  db: Db;
  /** The list's light query's call (Database.prepared); without it, `db`. */
  light?: Database["prepared"] | undefined;
  clock: Clock;
  events: Pick<EventBus, "publish">;
  log: FastifyBaseLogger;
  /** Runs a notify() after its answer, so shutdown and tests can wait for it. */
  track?: TrackJob | undefined;
  /** Push and email (each absent: that channel is off). */
  channels: { push?: Channel | undefined; email?: Channel | undefined };
  /** The cart notices in flight (created once: `createNoticeState()`). */
  state: NoticeState;
}
