import type { Db } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Mailer } from "./mailer.ts";
import type { MailQueue } from "./queue.ts";

/** What the email channel's functions need (email-channel.ts), built once in src/services.ts. */
export interface MailDeps {
  db: Db;
  /** The mail jobs' queue (queue.ts), created once. */
  mails: MailQueue;
  mailer: Mailer;
  clock: Clock;
  /** The public origin: links in mails are absolute. */
  publicUrl: string;
  /** The deployment's currency (CURRENCY). */
  currency: string;
}
