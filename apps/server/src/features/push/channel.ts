/**
 * The seam between the notification service (who is told what, preferences, quiet hours, the
 * in-app centre) and the channels that reach people away from the app: the service calls each
 * channel's deliver() once per person and notification it decided to send that way.
 */

export type { Notification, NotificationKind } from "@cartner/contract";
export type { Channel, OutgoingNotice } from "../notifications/index.ts";

/** An app path as a notification gives it; anything else opens the app's start. */
export function appPath(url: string): string {
  return url.startsWith("/") && !url.startsWith("//") ? url : "/";
}
