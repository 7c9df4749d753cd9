/**
 * A notice's shapes: what notify() takes (NotifyInput) and what it hands a channel. Apart from
 * service.ts, so that the deps (deps.ts) name the channels without importing the functions.
 */
import type { Notification, NotificationKind } from "@cartner/contract";

/** One notification on its way to a channel other than the app's list. */
export interface OutgoingNotice {
  user: { id: string; name: string; email: string };
  /** The contract's notification, as stored (or as it would be, when the app's list is off). */
  notification: Notification;
  /** ISO: not pushed or mailed from then on (a reminder held by quiet hours past its deadline). */
  expiresAt?: string | undefined;
}

/** Push or email: delivers one notice (its own throttling, digests and retries are its own). */
export interface Channel {
  deliver(notice: OutgoingNotice): Promise<void>;
}

/** A text per reader (their own share), or the same text for all. */
export type PerReader = string | ((userId: string) => string);

export interface NotifyInput {
  kind: NotificationKind;
  userIds: string[];
  /** Who did it: never told of their own action. */
  actorId?: string | undefined;
  /** The session it is about: only its members now hear of it. */
  sessionId?: string | undefined;
  orderId?: string | undefined;
  title: PerReader;
  body: PerReader;
  /** A path of the web app. */
  url: PerReader;
  /** A request to approve or decline a waiting line: the cart and the line it is about. */
  approval?: { cartId: string; lineId: string } | undefined;
  /** Changes only: how many changes it stands for (1 unless several came while one was told). */
  changes?: number;
  /** What it says stops being so then: no push or mail of it goes after (held by quiet hours). */
  expiresAt?: Date | undefined;
}
