/** What the orders functions need: built once in src/services.ts and passed to each call. */
import type { Database, Db } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Media } from "../../lib/media.ts";
import type { Jobs } from "../jobs/index.ts";
import type { EventBus } from "../live/index.ts";
import type { Mailer, MailQueue } from "../mail/index.ts";
import type { NotificationDeps } from "../notifications/index.ts";

export interface OrderDeps {
  db: Db;
  /**
   * The reads' light queries' statement call (Database.prepared: without Drizzle's parsers,
   * cheaper on the embedded database; planned once per connection on PostgreSQL); without it they
   * go through `db`.
   */
  light?: Database["prepared"];
  clock: Clock;
  events: Pick<EventBus, "publish">;
  /** The durable job queue: a series' next session is started by a job the checkout sends. */
  jobs: Pick<Jobs, "send">;
  media: Media;
  /** The checkout mails go on the mail queue with the order; a failure never undoes it. */
  mails: MailQueue;
  mailer: Mailer;
  /** Tells the order's people of checkouts and payments. */
  notices?: NotificationDeps | undefined;
  /** The deployment's currency (CURRENCY): the notices' and mails' amounts. */
  currency: string;
}
