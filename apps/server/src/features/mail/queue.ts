/**
 * Mails on the durable job queue ("mail.send", features/jobs): each job names what to send (an
 * order's checkout mail to one member, one notice, one digest, one invite), and its handler reads the rest
 * from the database when it runs, so a retry sends what is true then, and a job that already did
 * its work (a mail marked sent) changes nothing. A handler that throws is retried with backoff.
 * Every one waits out its recipient's quiet hours (features/notifications/quiet-hours.ts).
 */
import type { FastifyBaseLogger } from "fastify";
import type { Jobs, SendOptions } from "../jobs/index.ts";

/** Every kind of mail job, by its `type`; each feature registers the handler of its own. */
export interface MailJobs {
  /** The checkout mail of an order to one member with a share (features/orders). */
  order: { orderId: string; userId: string };
  /**
   * One notification to one person (features/mail/email-channel.ts); not sent from `expiresAt`
   * on (a reminder held past its deadline).
   */
  notice: { userId: string; notification: MailedNotification; expiresAt?: string | undefined };
  /** The digest of changes waiting for a member in one session (features/mail/email-channel.ts). */
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
  /**
   * The handler of one type; registered before start(). `recipient` names the account the mail
   * goes to (null: none, as for an invite to an address without one), whose quiet hours hold it;
   * by default the job's `userId`.
   */
  handle<T extends MailJobType>(
    type: T,
    handler: (data: MailJobs[T]) => Promise<void>,
    recipient?: (data: MailJobs[T]) => Promise<string | null>,
  ): void;
  /** Starts this instance's worker of the mail queue. */
  start(): Promise<void>;
}

/** The account a mail job goes to, when the job names it. */
const userIdOf = async (data: object): Promise<string | null> =>
  "userId" in data && typeof data.userId === "string" ? data.userId : null;

/**
 * The mail queue over the job queue: a created object, since it holds the handler of each kind of
 * mail job (registered by the features before start()) and the recipient each one is held for.
 */
export function createMailQueue(
  jobs: Jobs,
  log: FastifyBaseLogger,
  /** The quiet hours rule: when a mail to this account may go, if not now. */
  heldUntil: (userId: string) => Promise<Date | null>,
): MailQueue {
  const handlers = new Map<MailJobType, (data: never) => Promise<void>>();
  const recipients = new Map<MailJobType, (data: never) => Promise<string | null>>();
  return {
    async send(type, data, options) {
      await jobs.send("mail.send", { type, ...data }, options);
    },
    wake: () => jobs.wake("mail.send"),
    handle(type, handler, recipient) {
      handlers.set(type, handler as (data: never) => Promise<void>);
      if (recipient) recipients.set(type, recipient as (data: never) => Promise<string | null>);
    },
    async start() {
      await jobs.work(
        "mail.send",
        async (job: MailJob) => {
          const handler = handlers.get(job.type);
          if (!handler) {
            // A job this version does not know (sent by a newer one): another instance may.
            log.error({ type: job.type }, "a mail job of an unknown type");
            throw new Error(`no handler for mail jobs of type ${job.type}`);
          }
          const { type: _type, ...data } = job;
          await handler(data as never);
        },
        {
          holdUntil: async (job: MailJob) => {
            const { type, ...data } = job;
            const userId = await (recipients.get(type) ?? userIdOf)(data as never);
            return userId ? heldUntil(userId) : null;
          },
        },
      );
    },
  };
}
