/**
 * Notifications: what the app tells a person about changes by others, reminders, checkouts,
 * payments and their memberships, in the app (the bell), by push and by email; and each person's
 * choices of kind and channel, with quiet hours that hold push and email.
 */
import { z } from "zod";
import { isTimeZone } from "./time-zones.ts";

export const NOTIFICATION_KINDS = [
  "changes",
  "reminder",
  "checkout",
  "payment",
  "membership",
] as const;
export const NotificationKindSchema = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof NotificationKindSchema>;

export const NOTIFICATION_CHANNELS = ["inApp", "push", "email"] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/**
 * What a request for approval is about: a cart's line waiting over an "ask first" budget.
 * `waiting`: the line is still there and still waits (read with the list, so a line decided,
 * removed or declined since reads false).
 */
export const NotificationApprovalSchema = z.object({
  cartId: z.string(),
  lineId: z.string(),
  waiting: z.boolean(),
});
export type NotificationApproval = z.infer<typeof NotificationApprovalSchema>;

export const NotificationSchema = z.object({
  _id: z.string(),
  kind: NotificationKindSchema,
  sessionId: z.string().optional(),
  orderId: z.string().optional(),
  title: z.string(),
  body: z.string(),
  /** A path of the web app: the cart, the order or the lobby it is about. */
  url: z.string(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
  /** A request to approve or decline a waiting line; null for every other notification. */
  approval: NotificationApprovalSchema.nullable(),
});
export type Notification = z.infer<typeof NotificationSchema>;

/** "HH:MM", 00:00 to 23:59. */
export const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

const clockTime = (field: string) =>
  z.string().regex(CLOCK_TIME, `${field} is a time HH:MM, 00:00 to 23:59`);

export const QuietHoursSchema = z
  .strictObject({
    from: clockTime("from"),
    to: clockTime("to"),
    timeZone: z.string().refine(isTimeZone, "timeZone is not a known IANA time zone"),
  })
  .refine((q) => q.from !== q.to, { message: "from and to differ", path: ["to"] });
export type QuietHours = z.infer<typeof QuietHoursSchema>;

export const ChannelChoiceSchema = z.strictObject({
  inApp: z.boolean("inApp is true or false"),
  push: z.boolean("push is true or false"),
  email: z.boolean("email is true or false"),
});
export type ChannelChoice = z.infer<typeof ChannelChoiceSchema>;

export const NotificationPreferencesSchema = z.strictObject({
  kinds: z.strictObject({
    changes: ChannelChoiceSchema,
    reminder: ChannelChoiceSchema,
    checkout: ChannelChoiceSchema,
    payment: ChannelChoiceSchema,
    membership: ChannelChoiceSchema,
  }),
  /** Push and email wait while it is quiet; the app's own list never does. null: none. */
  quietHours: QuietHoursSchema.nullable(),
});
export type NotificationPreferences = z.infer<typeof NotificationPreferencesSchema>;

/**
 * Until a person chooses: everything in the app; push for all but changes by others; email for
 * reminders, checkouts and payments only.
 */
export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  kinds: {
    changes: { inApp: true, push: false, email: false },
    reminder: { inApp: true, push: true, email: true },
    checkout: { inApp: true, push: true, email: true },
    payment: { inApp: true, push: true, email: true },
    membership: { inApp: true, push: true, email: false },
  },
  quietHours: null,
};

export const NotificationsQuerySchema = z.strictObject({
  /** A notification's id: the page of those older than it (newest first). */
  after: z.uuid("after is a notification id").optional(),
  limit: z.coerce
    .number("limit is a number")
    .int("limit is a whole number")
    .min(1, "limit is 1 to 100")
    .max(100, "limit is 1 to 100")
    .default(50),
});

export const NotificationsResponseSchema = z.object({
  notifications: z.array(NotificationSchema),
  /** How many of the reader's notifications are unread (all of them, not only this page). */
  unread: z.number().int(),
});

export const MarkReadBodySchema = z.union([
  z.strictObject({ ids: z.array(z.uuid("ids are notification ids")).max(100, "at most 100 ids") }),
  z.strictObject({ all: z.literal(true, "all is true") }),
]);
export type MarkReadBody = z.infer<typeof MarkReadBodySchema>;

export const UnreadResponseSchema = z.object({ unread: z.number().int() });
export const PreferencesResponseSchema = z.object({ preferences: NotificationPreferencesSchema });
