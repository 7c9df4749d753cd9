import type { FastifyInstance } from "fastify";

declare module "fastify" {
  interface FastifyInstance {
    /** Resolves when the mails sent after their answers (reset, invite, checkout) are done. */
    idle: () => Promise<void>;
  }
}

/** Hands a mail sent after its answer to the app, which logs its failure and waits for it. */
export type TrackJob = (job: Promise<unknown>) => void;

/**
 * Mails sent after the answer (checkout, password reset, invites): shutdown waits for them, and
 * `app.idle()` resolves once none is left. Answers the function that tracks one.
 */
export function installMailJobs(app: FastifyInstance): TrackJob {
  const mailJobs = new Set<Promise<unknown>>();
  app.addHook("onClose", async () => {
    await Promise.allSettled(mailJobs);
  });
  app.decorate("idle", async () => {
    while (mailJobs.size > 0) await Promise.allSettled([...mailJobs]);
  });
  return (job) => {
    mailJobs.add(job);
    void job.catch((error) => app.log.error({ err: error }, "a mail job failed"));
    void job.finally(() => mailJobs.delete(job));
  };
}
