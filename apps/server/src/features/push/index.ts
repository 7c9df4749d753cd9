/** Web Push and the channels' seam with the notification service. */
export {
  appPath,
  type Channel,
  type Notification,
  type NotificationKind,
  type OutgoingNotice,
} from "./channel.ts";
export { createPushChannel, pushPayload, type VapidKeys } from "./push-channel.ts";
export type { PushDeps } from "./deps.ts";
export { subscribeDevice, unsubscribeDevice } from "./subscriptions.ts";
export { pushRoutes } from "./routes.ts";
