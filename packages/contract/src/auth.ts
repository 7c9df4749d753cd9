import { z } from "zod";
import {
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  OTP_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from "./constants.ts";
import { ACCOUNT_ROLES } from "./permissions.ts";
import { text } from "./text.ts";

/** Trimmed, lower-cased; the same rule wherever an email is typed. */
export const EmailSchema = text({ max: EMAIL_MAX_LENGTH })
  .pipe(z.email({ message: "Enter a valid email address" }))
  .transform((value) => value.toLowerCase());
const email = EmailSchema;

/** A person's display name. */
export const PersonNameSchema = text({
  min: 1,
  minMessage: "Name is required",
  max: NAME_MAX_LENGTH,
  name: true,
});

const password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

/** An account's roles across the deployment ("operator": runs the catalog); usually none. */
export const AccountRolesSchema = z.array(z.enum(ACCOUNT_ROLES));

export const UserSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  roles: AccountRolesSchema,
});
export type User = z.infer<typeof UserSchema>;

export const OTP_PURPOSES = ["register", "login", "update", "reset"] as const;
export const OtpPurposeSchema = z.enum(OTP_PURPOSES);
export type OtpPurpose = z.infer<typeof OtpPurposeSchema>;

export const RegisterBodySchema = z.strictObject({
  name: PersonNameSchema,
  email,
  password,
});
export type RegisterBody = z.infer<typeof RegisterBodySchema>;

export const LoginBodySchema = z.strictObject({
  email,
  // Any length is accepted here: a short password is simply wrong, and says nothing more.
  password: z.string().min(1, "Password is required").max(PASSWORD_MAX_LENGTH),
});
export type LoginBody = z.infer<typeof LoginBodySchema>;

export const OtpCodeSchema = z
  .string()
  .regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), `The code is ${OTP_LENGTH} digits`);

export const VerifyOtpBodySchema = z.strictObject({
  userId: z.uuid("Invalid user id"),
  code: OtpCodeSchema,
  /**
   * The browser's IANA time zone, a hint: the account takes it unless its owner chose one in the
   * profile; a zone the server does not know is ignored, so it never stands in a sign-in's way.
   */
  timeZone: z.string().max(64).optional(),
});
export type VerifyOtpBody = z.infer<typeof VerifyOtpBodySchema>;

export const ResendOtpBodySchema = z.strictObject({
  userId: z.uuid("Invalid user id"),
});

export const AuthStartResponseSchema = z.object({
  message: z.string(),
  userId: z.string(),
  user: UserSchema,
  /** Login within 60 s of a sent code: no new mail, the code already sent still works. */
  codeAlreadySent: z.boolean().optional(),
});
export type AuthStartResponse = z.infer<typeof AuthStartResponseSchema>;

export const VerifyOtpResponseSchema = z.object({
  message: z.string(),
  token: z.string(),
  user: UserSchema,
  purpose: OtpPurposeSchema,
});
export type VerifyOtpResponse = z.infer<typeof VerifyOtpResponseSchema>;

export const MessageResponseSchema = z.object({ message: z.string() });
export const TokenResponseSchema = z.object({ token: z.string() });
export const ValidateTokenResponseSchema = z.object({ valid: z.literal(true), user: UserSchema });
export type ValidateTokenResponse = z.infer<typeof ValidateTokenResponseSchema>;

export const HealthResponseSchema = z.object({
  status: z.literal("ok"),
  db: z.literal("ok"),
  /** Mails go to the development outbox at /dev/mailbox (never in production). */
  devMailbox: z.boolean(),
});

// Accounts: forgotten password, deletion, signed-in devices.
export const ForgotPasswordBodySchema = z.strictObject({ email });
export const ResetPasswordBodySchema = z.strictObject({ email, code: OtpCodeSchema, password });
export type ResetPasswordBody = z.infer<typeof ResetPasswordBodySchema>;
export const DeleteAccountBodySchema = z.strictObject({
  password: z.string().min(1, "Password is required").max(PASSWORD_MAX_LENGTH),
  /** Delete even with shares not yet settled (else 409 UNSETTLED_SHARES lists them). */
  acknowledgeUnsettled: z.boolean("acknowledgeUnsettled is true or false").optional(),
});

/** A signed-in device: one auth session. */
export const DeviceSchema = z.object({
  _id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  /** As the browser sent it at sign-in (the web app names browser and OS from it). */
  userAgent: z.string(),
  current: z.boolean(),
});
export type Device = z.infer<typeof DeviceSchema>;
export const DevicesResponseSchema = z.object({ sessions: z.array(DeviceSchema) });
