/**
 * Who gets into a session and how: join requests by code and passcode (join-requests.ts) and
 * invites by email or name (invites.ts). The session service owns sessions themselves; these only
 * change their members.
 */
import type { Db } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Media } from "../../lib/media.ts";
import type { Mailer, MailQueue } from "../mail/index.ts";
import type { NotificationService } from "../notifications/index.ts";
import type { EventBus } from "../realtime/index.ts";
import { createInviteService } from "./invites.ts";
import { createJoinRequestService } from "./join-requests.ts";
import type { SessionService } from "./service.ts";

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

export function createMembershipService(deps: MembershipDeps) {
  return { ...createJoinRequestService(deps), ...createInviteService(deps) };
}

export type MembershipService = ReturnType<typeof createMembershipService>;
