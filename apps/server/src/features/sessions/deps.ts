/**
 * What the sessions functions are given: the one deps object of the feature, built once in
 * `src/services.ts`. A function that needs little takes a Pick of it, so other features (series,
 * deadlines) and tests call it with what they have.
 */
import type { Database, Db } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Media } from "../../lib/media.ts";
import type { Mailer, MailQueue } from "../mail/index.ts";
import type { NotificationDeps } from "../notifications/index.ts";
import type { EventBus } from "../live/index.ts";

export interface SessionDeps {
  db: Db;
  /** The activity feed's light query's call (Database.prepared); without it, `db`. */
  light?: Database["prepared"] | undefined;
  clock: Clock;
  /** Told of every committed change (never of a rolled-back one). */
  events: Pick<EventBus, "publish">;
  media: Media;
  /**
   * Invite mails: a job sent with the invite, which mails it while it is pending (retried with
   * backoff; a failure never undoes the invite).
   */
  mails?: MailQueue | undefined;
  mailer?: Mailer | undefined;
  /**
   * Tells creators of join requests, requesters of the answer, invitees of their invite, and a
   * removed member.
   */
  notices?: NotificationDeps | undefined;
  /** Seals invite links' tokens for the creator's list (AES-256-GCM); only their hash is looked up. */
  linkKey: Buffer;
}
