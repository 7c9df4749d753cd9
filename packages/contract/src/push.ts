import { z } from "zod";

/** A key as the Push API gives it: unpadded base64url of exactly `bytes` bytes. */
function base64urlKey(bytes: number, what: string) {
  // Unpadded base64url of n bytes is ceil(4n/3) characters.
  const length = Math.ceil((bytes * 4) / 3);
  return z
    .string()
    .regex(
      new RegExp(`^[A-Za-z0-9_-]{${length}}$`),
      `${what} must be ${bytes} bytes in unpadded base64url, as the browser's subscription gives it`,
    );
}

/** GET /push/public-key: the server's VAPID public key (65 bytes, base64url). */
export const PushPublicKeySchema = z.object({ publicKey: z.string() });

/**
 * POST /push/subscriptions: a PushSubscription's JSON (`subscription.toJSON()`). The server also
 * checks the endpoint is a push service's (https, not a local address).
 */
export const PushSubscriptionBodySchema = z.strictObject({
  endpoint: z
    .url({ protocol: /^https?$/, error: "endpoint must be the push service's https:// URL" })
    .max(2048, "endpoint must be at most 2048 characters"),
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({
    /** The browser's P-256 public key, uncompressed (65 bytes). */
    p256dh: base64urlKey(65, "keys.p256dh"),
    /** The 16-byte authentication secret. */
    auth: base64urlKey(16, "keys.auth"),
  }),
});
export type PushSubscriptionBody = z.input<typeof PushSubscriptionBodySchema>;

/** DELETE /push/subscriptions: the endpoint to forget (only the caller's own). */
export const PushUnsubscribeBodySchema = z.strictObject({
  endpoint: z.string().min(1, "endpoint is required").max(2048),
});
export type PushUnsubscribeBody = z.input<typeof PushUnsubscribeBodySchema>;

/** What the service worker receives in a push (JSON): it shows it, and a click opens `url`. */
export interface PushPayload {
  title: string;
  body: string;
  /** An app path ("/sessions/…"). */
  url: string;
  /** Notifications with the same tag replace each other on the device. */
  tag: string;
}
