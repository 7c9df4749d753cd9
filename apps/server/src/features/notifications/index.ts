/**
 * What other features use of notifications: the deps they hold (NotificationDeps), notify() and
 * its after-the-answer form `later()`, the cart changes' `tellCartChange()`, the channel seam
 * push and email plug into, and the quiet hours rule.
 */
export { createNoticeState, type NoticeState, type NotificationDeps } from "./deps.ts";
export { later, markLineRead, notify } from "./service.ts";
export { tellCartChange, type CartChangeView } from "./feeds.ts";
export type { Channel, NotifyInput, OutgoingNotice } from "./types.ts";
export { inQuietHours, quietHold, quietHoursEnd } from "./quiet-hours.ts";
export { notificationRoutes } from "./routes.ts";
