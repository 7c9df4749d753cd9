/**
 * What other features use of notifications: the service (notify() and its after-the-answer form
 * `later()`), the channel seam push and email plug into, and the quiet hours rule.
 */
export {
  createNotificationService,
  type NotificationService,
  type NotificationServiceDeps,
} from "./service.ts";
export type { Channel, NotifyInput, OutgoingNotice } from "./types.ts";
export { createQuietHold, inQuietHours, quietHoursEnd, type QuietHold } from "./quiet-hours.ts";
export { notificationRoutes } from "./routes.ts";
