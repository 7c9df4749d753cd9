import {
  MarkReadBodySchema,
  NotificationPreferencesSchema,
  NotificationsQuerySchema,
  NotificationsResponseSchema,
  PreferencesResponseSchema,
  UnreadResponseSchema,
} from "../notifications.ts";
import type { EndpointGroup } from "./base.ts";

/** The reader's own notifications and their choices of kind, channel and quiet hours. */
export const notificationEndpoints = {
  "GET /api/notifications": {
    summary:
      "My notifications, newest first, and how many are unread; after: a notification's id, for the page after it",
    access: "user",
    query: NotificationsQuerySchema,
    responses: { 200: NotificationsResponseSchema },
    errors: [400],
  },
  "POST /api/notifications/read": {
    summary:
      "Mark my notifications read: { ids } (ids that are not mine change nothing) or { all: true }",
    access: "user",
    body: MarkReadBodySchema,
    responses: { 200: UnreadResponseSchema },
    errors: [400],
  },
  "GET /api/users/me/notification-preferences": {
    summary: "My notification choices by kind and channel, and my quiet hours",
    access: "user",
    responses: { 200: PreferencesResponseSchema },
    errors: [],
  },
  "PUT /api/users/me/notification-preferences": {
    summary:
      "Set my notification choices (every kind with inApp, push and email) and quiet hours (from, to as HH:MM, an IANA timeZone; null: none)",
    access: "user",
    body: NotificationPreferencesSchema,
    responses: { 200: PreferencesResponseSchema },
    errors: [400],
  },
} as const satisfies EndpointGroup;
