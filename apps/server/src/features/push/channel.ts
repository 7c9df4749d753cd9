/**
 * The seam between the notification service (who is told what, preferences, quiet hours, the
 * in-app centre) and the channels that reach people away from the app: the service calls each
 * channel's deliver() once per person and notification it decided to send that way.
 */

/** What a notification is about (the in-app centre's kinds). */
export type NotificationKind = "changes" | "reminder" | "checkout" | "payment" | "membership";

/** A notification as the contract shows it (a plain type until the contract's own is merged). */
export interface Notification {
  _id: string;
  kind: NotificationKind;
  sessionId?: string | undefined;
  orderId?: string | undefined;
  title: string;
  body: string;
  /** The app path it opens ("/cart/…", "/orders/…"). */
  url: string;
  createdAt: string;
  readAt: string | null;
}

export interface OutgoingNotice {
  user: { id: string; name: string; email: string };
  notification: Notification;
}

/** A way to reach someone: Web Push to their devices, or mail. The notification service calls deliver(). */
export interface Channel {
  /** Resolves once the delivery is queued (durably): sending and its retries happen in jobs. */
  deliver(notice: OutgoingNotice): Promise<void>;
}

/** An app path as a notification gives it; anything else opens the app's start. */
export function appPath(url: string): string {
  return url.startsWith("/") && !url.startsWith("//") ? url : "/";
}
