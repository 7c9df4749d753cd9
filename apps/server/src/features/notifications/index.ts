/**
 * What other features use of notifications: the service (notify() and its after-the-answer form
 * `later()`), the channel seam push and email plug into, and the quiet hours rule.
 */
export {
  createNotificationService,
  type Channel,
  type NotificationService,
  type NotificationServiceDeps,
  type NotifyInput,
  type OutgoingNotice,
} from "./service.ts";
export { createQuietHold, inQuietHours, quietHoursEnd, type QuietHold } from "./quiet-hours.ts";
export { notificationRoutes } from "./routes.ts";
