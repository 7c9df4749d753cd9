import { z } from "zod";
import {
  PushPublicKeySchema,
  PushSubscriptionBodySchema,
  PushUnsubscribeBodySchema,
} from "../push.ts";
import type { EndpointGroup } from "./base.ts";

/** Web Push: the server's key, and the devices that asked for notifications. */
export const pushEndpoints = {
  "GET /api/push/public-key": {
    summary: "The server's VAPID public key (base64url), for pushManager.subscribe()",
    access: "public",
    responses: { 200: PushPublicKeySchema },
    errors: [],
  },
  "POST /api/push/subscriptions": {
    summary:
      "Notify this device: a PushSubscription's JSON (endpoint, keys.p256dh, keys.auth). The same endpoint again updates its owner and keys",
    access: "user",
    body: PushSubscriptionBodySchema,
    responses: { 201: z.null().describe("Created") },
    errors: [400],
  },
  "DELETE /api/push/subscriptions": {
    summary: "Stop notifying a device of yours: { endpoint } (another's endpoint changes nothing)",
    access: "user",
    body: PushUnsubscribeBodySchema,
    responses: { 204: z.null().describe("No content") },
    errors: [400],
  },
} as const satisfies EndpointGroup;
