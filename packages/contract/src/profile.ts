import { z } from "zod";
import { AccountRolesSchema, EmailSchema } from "./auth.ts";
import { text } from "./text.ts";
import { NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./constants.ts";
import { isTimeZone } from "./time-zones.ts";

export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
export const AVATAR_MAX_SIDE = 4096;
export const AVATAR_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;

/** The text fields of POST /api/profile/me (multipart); each optional, only sent ones change. */
export const ProfileFieldsSchema = z.strictObject({
  name: text({
    min: 1,
    minMessage: "Name cannot be empty",
    max: NAME_MAX_LENGTH,
    name: true,
  }).optional(),
  bio: text({ max: 500, multiline: true }).optional(),
  location: text({ max: 100 }).optional(),
  /** A JSON list of strings, as the multipart profile form sends it. */
  languages: z
    .string()
    .transform((value, ctx) => {
      try {
        return JSON.parse(value) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "Languages must be a JSON list" });
        return z.NEVER;
      }
    })
    .pipe(z.array(text({ min: 1, max: 40 })).max(20, "At most 20 languages"))
    .optional(),
  occupation: text({ max: 100 }).optional(),
  phoneNumber: text({ max: 30 })
    .regex(/^[+()\d\s.-]{0,30}$/, "Use digits, spaces and + ( ) - . only")
    .optional(),
});
export type ProfileFields = z.input<typeof ProfileFieldsSchema>;

export const ProfileSchema = z.object({
  avatar: z.string(),
  bio: z.string(),
  location: z.string(),
  languages: z.array(z.string()),
  occupation: z.string(),
  phoneNumber: z.string(),
  joinedAt: z.string(),
  /** The IANA zone the server states times in for you (mails, notices, receipts); "UTC" unset. */
  timeZone: z.string(),
  user: z.object({
    _id: z.string(),
    name: z.string(),
    email: z.string(),
    roles: AccountRolesSchema,
  }),
  sessions: z.array(z.object({ _id: z.string(), sessionName: z.string(), status: z.string() })),
  carts: z.array(
    z.object({
      _id: z.string(),
      sessionId: z.object({ _id: z.string(), sessionName: z.string() }),
      itemCount: z.number().int(),
      status: z.string(),
    }),
  ),
});
export type Profile = z.infer<typeof ProfileSchema>;

/** PUT /users/me/time-zone: the zone to read every time the server sends you in. */
export const SetTimeZoneBodySchema = z.strictObject({
  timeZone: z
    .string("timeZone is an IANA time zone name")
    .refine(isTimeZone, "Not a known time zone (an IANA name such as Europe/Berlin, or UTC)"),
});
export type SetTimeZoneBody = z.input<typeof SetTimeZoneBodySchema>;
export const TimeZoneResponseSchema = z.object({ timeZone: z.string() });

export const PublicUserSchema = z.object({
  user: z.object({ _id: z.string(), name: z.string(), avatar: z.string(), joinedAt: z.string() }),
});

export const UpdateCredentialsBodySchema = z
  .strictObject({
    email: EmailSchema.optional(),
    password: z
      .string()
      .min(PASSWORD_MIN_LENGTH, `New password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
      .max(PASSWORD_MAX_LENGTH)
      .optional(),
    currentPassword: z
      .string()
      .min(1, "Your current password is required")
      .max(PASSWORD_MAX_LENGTH),
  })
  .refine((b) => b.email !== undefined || b.password !== undefined, {
    message: "Send a new email, a new password, or both",
    path: ["email"],
  });
export type UpdateCredentialsBody = z.input<typeof UpdateCredentialsBodySchema>;
