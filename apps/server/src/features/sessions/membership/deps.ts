/**
 * What the membership services are built from: join requests (join-requests.ts) and invites
 * (invites.ts) take these, and membership.ts composes the two.
 */
import type { Db } from "../../../db/client.ts";
import type { Clock } from "../../../lib/clock.ts";
import type { Media } from "../../../lib/media.ts";
import type { Mailer, MailQueue } from "../../mail/index.ts";
import type { NotificationService } from "../../notifications/index.ts";
import type { EventBus } from "../../live/index.ts";
import type { SessionService } from "../lifecycle/sessions.ts";

export interface MembershipDeps {
  db: Db;
  clock: Clock;
  events: Pick<EventBus, "publish">;
  media: Media;
  sessions: SessionService;
  /**
   * Invite mails: a job sent with the invite, which mails it while it is pending (retried with
   * backoff; a failure never undoes the invite).
   */
  mails?: MailQueue;
  mailer?: Mailer;
  /** Tells creators of join requests, requesters of the answer, invitees of their invite. */
  notices?: Pick<NotificationService, "later"> | undefined;
}
