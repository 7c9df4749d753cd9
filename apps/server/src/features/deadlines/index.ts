/**
 * Session deadlines: the creator's calls (service.ts), what the
 * deadline's times bring (due.ts: reminders, the lock's entry, the automatic checkout) and the
 * reminders themselves (reminders.ts, `sendReminder()`). `createDeadlines()` wires them to the job
 * queue; `start()` takes the queues' jobs and sweeps deadlines that passed while no server ran.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Jobs } from "../jobs/index.ts";
import type { NotificationService } from "../notifications/index.ts";
import type { EventBus } from "../live/index.ts";
import type { SessionService } from "../sessions/index.ts";
import { createDeadlineDue, type AutoCheckout } from "./due.ts";
import { createReminders, type ReminderJob } from "./reminders.ts";
import { createDeadlineService, type DueJob } from "./service.ts";

export { deadlineRoutes } from "./routes.ts";
export { deadlineIn, startDeadline, type DeadlineService } from "./service.ts";

export function createDeadlines(deps: {
  db: Db;
  clock: Clock;
  events: Pick<EventBus, "publish">;
  jobs: Jobs;
  sessions: Pick<SessionService, "view">;
  orders: { checkout: AutoCheckout };
  notices: Pick<NotificationService, "notify">;
  log: FastifyBaseLogger;
  /** The deployment's currency, for the reminders' amounts. */
  currency: string;
}) {
  const service = createDeadlineService(deps);
  const due = createDeadlineDue({ ...deps, checkout: deps.orders.checkout });
  const { sendReminder } = createReminders(deps);

  /** Takes the deadline jobs; then, in the background, what passed while no server ran. */
  async function start(): Promise<Promise<void>> {
    await deps.jobs.work("deadline.due", (job: DueJob) => due.onDue(job));
    await deps.jobs.work("deadline.remind", async (job: ReminderJob) => {
      await sendReminder(job);
    });
    return due.sweep().then(
      (count) => {
        if (count > 0) deps.log.info({ count }, "overdue deadlines processed at start");
      },
      (error: unknown) => deps.log.error({ err: error }, "overdue deadlines at start"),
    );
  }

  return { ...service, processSession: due.processSession, sweep: due.sweep, sendReminder, start };
}

export type Deadlines = ReturnType<typeof createDeadlines>;
