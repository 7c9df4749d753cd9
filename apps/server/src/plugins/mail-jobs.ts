import type { FastifyInstance } from "fastify";
import type { Jobs } from "../features/jobs/index.ts";

declare module "fastify" {
  interface FastifyInstance {
    /**
     * Resolves when the mails sent after their answers (reset, invite) are done and no job of
     * the queue (checkout mails, notices, pushes) is due or running.
     */
    idle: () => Promise<void>;
  }
}

/** Hands a mail sent after its answer to the app, which logs its failure and waits for it. */
export type TrackJob = (job: Promise<unknown>) => void;

/**
 * Mails sent after the answer (password reset, invites): shutdown waits for them, and
 * `app.idle()` resolves once none is left and the job queue has nothing due (features/jobs).
 * Answers the function that tracks one.
 */
export function installMailJobs(app: FastifyInstance, jobs: Pick<Jobs, "idle">): TrackJob {
  const mailJobs = new Set<Promise<unknown>>();
  app.addHook("onClose", async () => {
    await Promise.allSettled(mailJobs);
  });
  app.decorate("idle", async () => {
    do {
      while (mailJobs.size > 0) await Promise.allSettled([...mailJobs]);
      await jobs.idle();
    } while (mailJobs.size > 0);
  });
  return (job) => {
    mailJobs.add(job);
    // One chain: a failure is logged here, never left as an unhandled rejection.
    void job
      .catch((error) => app.log.error({ err: error }, "a mail job failed"))
      .finally(() => mailJobs.delete(job));
  };
}
