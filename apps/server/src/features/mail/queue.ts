/**
 * Mails on the durable job queue ("mail.send", features/jobs): each job names what to send (an
 * order's checkout mail to one member, one notice, one digest, one invite), and its handler reads the rest
 * from the database when it runs, so a retry sends what is true then, and a job that already did
 * its work (a mail marked sent) changes nothing. A handler that throws is retried with backoff.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Jobs, SendOptions } from "../jobs/index.ts";

/** Every kind of mail job, by its `type`; each feature registers the handler of its own. */
export interface MailJobs {
  /** The checkout mail of an order to one member with a share (features/orders). */
  order: { orderId: string; userId: string };
  /** One notification to one person (features/push/email-channel.ts). */
  notice: { userId: string; notification: MailedNotification };
  /** The digest of changes waiting for a member in one session (features/push/email-channel.ts). */
  digest: { userId: string; sessionId: string };
  /** An invite by email, while it is pending (features/sessions). */
  invite: { inviteId: string };
}

/** What a notice mail needs of a notification (JSON in the job). */
export interface MailedNotification {
  kind: string;
  title: string;
  body: string;
  url: string;
  sessionId?: string | undefined;
  orderId?: string | undefined;
}

export type MailJobType = keyof MailJobs;
export type MailJob = { [T in MailJobType]: { type: T } & MailJobs[T] }[MailJobType];

export interface MailQueue {
  /** Enqueues a mail; with `tx`, it exists exactly when that transaction commits. */
  send<T extends MailJobType>(type: T, data: MailJobs[T], options?: SendOptions): Promise<void>;
  /** After the commit of a transaction that sent mails: they go now rather than at the next poll. */
  wake(): void;
  /** The handler of one type; registered before start(). */
  handle<T extends MailJobType>(type: T, handler: (data: MailJobs[T]) => Promise<void>): void;
  /** Starts this instance's worker of the mail queue. */
  start(): Promise<void>;
}

export function createMailQueue(jobs: Jobs, log: FastifyBaseLogger): MailQueue {
  const handlers = new Map<MailJobType, (data: never) => Promise<void>>();
  return {
    async send(type, data, options) {
      await jobs.send("mail.send", { type, ...data }, options);
    },
    wake: () => jobs.wake("mail.send"),
    handle(type, handler) {
      handlers.set(type, handler as (data: never) => Promise<void>);
    },
    async start() {
      await jobs.work("mail.send", async (job: MailJob) => {
        const handler = handlers.get(job.type);
        if (!handler) {
          // A job this version does not know (sent by a newer one): another instance may.
          log.error({ type: job.type }, "a mail job of an unknown type");
          throw new Error(`no handler for mail jobs of type ${job.type}`);
        }
        const { type: _type, ...data } = job;
        await handler(data as never);
      });
    },
  };
}
