import { z } from "zod";
import { DeleteAccountBodySchema } from "../auth.ts";
import { UnsettledSharesErrorSchema } from "../orders.ts";
import {
  ProfileSchema,
  PublicUserSchema,
  SetTimeZoneBodySchema,
  TimeZoneResponseSchema,
} from "../profile.ts";
import { svg, type EndpointGroup } from "./base.ts";

export const AvatarFileParamsSchema = z.strictObject({
  file: z
    .string()
    .regex(/^.{1,200}\.svg$/s, "Ask for {seed}.svg")
    .transform((file) => file.slice(0, -".svg".length)),
});
const accountExport = z
  .record(z.string(), z.unknown())
  .describe(
    "application/json attachment: your account, profile, sessions, carts, orders and payment details",
  );

/** Profiles, account export and deletion, and avatars. */
export const profileEndpoints = {
  "GET /api/profile/me": {
    summary: "My profile (created empty on first read), with my sessions and carts",
    access: "user",
    responses: { 200: ProfileSchema },
    errors: [],
  },
  "POST /api/profile/me": {
    summary:
      "Update my profile: multipart/form-data with name?, bio?, location?, languages? (JSON list), occupation?, phoneNumber?, avatar? (PNG, JPEG, WebP or GIF, at most 5 MB and 4096 x 4096 px)",
    access: "user",
    body: "multipart",
    responses: { 200: ProfileSchema },
    errors: [400, 413, 415],
  },
  "PUT /api/users/me/time-zone": {
    summary:
      "Choose the IANA time zone every time sent to you is stated in (mails, notifications, pushes, receipts, CSV); from then on a sign-in no longer sets it from the browser",
    access: "user",
    body: SetTimeZoneBodySchema,
    responses: { 200: TimeZoneResponseSchema },
    errors: [400],
  },
  "GET /api/users/me/export": {
    summary: "Download all your data as JSON",
    access: "user",
    responses: { 200: accountExport },
    errors: [],
  },
  "DELETE /api/users/me": {
    summary:
      "Delete your account (password required; with shares not yet settled, 409 UNSETTLED_SHARES lists them unless acknowledgeUnsettled is true)",
    access: "user",
    body: DeleteAccountBodySchema,
    responses: { 204: z.null().describe("No content") },
    errors: [400, 403, 409],
    errorBodies: { 409: UnsettledSharesErrorSchema },
  },
  "GET /api/users/:userId": {
    summary: "A small public profile of someone who shares a session with me",
    access: "user",
    params: z.strictObject({ userId: z.uuid("User not found") }),
    responses: { 200: PublicUserSchema },
    errors: [404],
  },
  "GET /api/users/:userId/avatar": {
    summary: "A user's uploaded avatar (WebP), else a redirect to the generated one",
    access: "public",
    media: true,
    params: z.strictObject({ userId: z.uuid() }),
    query: z.strictObject({ v: z.string().max(20).optional() }),
    responses: { 200: z.any().describe("image/webp"), 302: z.null() },
    errors: [400],
  },
  "GET /api/avatars/:file": {
    summary: "A generated avatar for any seed (email, name, session code), as SVG",
    access: "public",
    media: true,
    params: AvatarFileParamsSchema,
    responses: { 200: svg },
    errors: [400],
  },
} as const satisfies EndpointGroup;
