/**
 * Session deadlines: the creator's calls (service.ts), what the
 * deadline's times bring (due.ts: reminders, the lock's entry, the automatic checkout) and the
 * reminders themselves (reminders.ts, `sendReminder()`). `workDeadlineJobs()` takes the queues'
 * jobs and sweeps deadlines that passed while no server ran.
 */
import type { DeadlineDeps } from "./deps.ts";
import { onDue, sweep } from "./due.ts";
import { sendReminder, type ReminderJob } from "./reminders.ts";
import type { DueJob } from "./service.ts";

export type { AutoCheckout, DeadlineDeps } from "./deps.ts";
export { deadlineRoutes } from "./routes.ts";
export { deadlineIn, startDeadline } from "./service.ts";

/** Takes the deadline jobs; then, in the background, what passed while no server ran. */
export async function workDeadlineJobs(deps: DeadlineDeps): Promise<Promise<void>> {
  await deps.jobs.work("deadline.due", (job: DueJob) => onDue(deps, job));
  await deps.jobs.work("deadline.remind", async (job: ReminderJob) => {
    await sendReminder(deps, job);
  });
  return sweep(deps).then(
    (count) => {
      if (count > 0) deps.log.info({ count }, "overdue deadlines processed at start");
    },
    (error: unknown) => deps.log.error({ err: error }, "overdue deadlines at start"),
  );
}
