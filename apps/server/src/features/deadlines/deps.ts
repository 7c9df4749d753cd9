/**
 * What the deadline functions are given: the one deps object of the feature, built in
 * `src/services.ts`.
 */
import type { User } from "@cartner/contract";
import type { FastifyBaseLogger } from "fastify";
import type { Jobs } from "../jobs/index.ts";
import type { NotificationDeps } from "../notifications/index.ts";
import type { SessionDeps, WriteContext } from "../sessions/index.ts";

/**
 * The automatic checkout: the orders service's checkout, which the caller passes in (orders start
 * a series' next session, whose deadline is set here, so deadlines do not import orders). It runs
 * `before` first inside its transaction, under its locks, and says `automatic` in the entry; lines
 * over the stock get what is left.
 */
export type AutoCheckout = (
  sessionId: string,
  creator: User,
  options: {
    automatic: true;
    before: (ctx: WriteContext) => Promise<void>;
    overStock: "take_what_is_left";
    pending: "drop";
  },
) => Promise<unknown>;

export interface DeadlineDeps extends Pick<SessionDeps, "db" | "clock" | "events" | "media"> {
  /** Sends the wake-ups and reminders; `workDeadlineJobs()` takes their queues. */
  jobs: Jobs;
  checkout: AutoCheckout;
  /** Reminds members (in the app, by push, by mail, as they chose). */
  notices: NotificationDeps;
  log: FastifyBaseLogger;
  /** The deployment's currency, for the reminders' amounts. */
  currency: string;
}
