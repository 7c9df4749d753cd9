/**
 * Web Push: a notification goes to every device of the person that allowed it. deliver() sends
 * one "push.send" job per device; the job encrypts the message to the device's keys and signs
 * the request with the server's VAPID key (the `web-push` library), and posts it to the device's
 * push service. A push service answering 404 or 410 says the device unsubscribed: its row goes.
 * Network failures, 429 and 5xx are retried with backoff (features/jobs QUEUES).
 */
import type { PushPayload } from "@cartner/contract";
import { and, eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import webpush from "web-push";
import type { Db } from "../../db/client.ts";
import { pushSubscriptions } from "../../db/schema.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Jobs } from "../jobs/index.ts";
import { appPath, type Channel, type Notification } from "./channel.ts";

/** How long a push service keeps a message for a device that is offline. */
const TTL_SECONDS = 24 * 3600;
/** A push service that has not answered by then is tried again later. */
const SEND_TIMEOUT_MS = 10_000;

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

interface PushJob {
  subscriptionId: string;
  payload: PushPayload;
}

/** What the service worker shows (apps/web/public/push-sw.js), kept well under 4 KB. */
export function pushPayload(notification: Notification): PushPayload {
  const cut = (text: string, max: number) =>
    text.length > max ? `${text.slice(0, max - 1)}…` : text;
  return {
    title: cut(notification.title, 120),
    body: cut(notification.body, 600),
    url: appPath(notification.url),
    // A newer notice about the same session or order replaces the older one on the device.
    tag: `${notification.kind}:${notification.sessionId ?? notification.orderId ?? notification._id}`,
  };
}

export function createPushChannel(deps: {
  db: Db;
  jobs: Jobs;
  clock: Clock;
  log: FastifyBaseLogger;
  vapid: VapidKeys;
  /** VAPID_SUBJECT: a mailto: or https: URL the push service may contact. */
  subject: string;
}): Channel & { start(): Promise<void> } {
  const { db, jobs, clock, log } = deps;
  const vapidDetails = { subject: deps.subject, ...deps.vapid };

  async function send({ subscriptionId, payload }: PushJob): Promise<void> {
    const [device] = await db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.id, subscriptionId));
    if (!device) return;
    const request = webpush.generateRequestDetails(
      { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
      JSON.stringify(payload),
      { vapidDetails, TTL: TTL_SECONDS, urgency: "normal", contentEncoding: "aes128gcm" },
    );
    // fetch sets the length itself; web-push only builds the request (it would send over https
    // alone), so the push service's answer is read here.
    const { "Content-Length": _length, ...headers } = request.headers as Record<string, string>;
    const response = await fetch(request.endpoint, {
      method: request.method,
      headers,
      body: new Uint8Array(request.body),
      redirect: "error",
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.ok) {
      await db
        .update(pushSubscriptions)
        .set({ lastSuccessAt: clock.now() })
        .where(eq(pushSubscriptions.id, device.id));
      return;
    }
    if (response.status === 404 || response.status === 410) {
      // Unsubscribed or expired: the endpoint will never take a message again.
      await db
        .delete(pushSubscriptions)
        .where(
          and(eq(pushSubscriptions.id, device.id), eq(pushSubscriptions.endpoint, device.endpoint)),
        );
      return;
    }
    if (response.status === 429 || response.status >= 500) {
      throw new Error(`push service answered ${response.status}`);
    }
    // 400, 401, 403, 413: this message as signed and sent will never be taken; trying again
    // changes nothing.
    log.warn(
      { status: response.status, pushService: new URL(device.endpoint).host },
      "push service refused a message",
    );
  }

  return {
    async deliver({ user, notification }) {
      const devices = await db
        .select({ id: pushSubscriptions.id })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, user.id));
      const payload = pushPayload(notification);
      for (const device of devices) {
        await jobs.send("push.send", { subscriptionId: device.id, payload } satisfies PushJob);
      }
    },
    start: () => jobs.work("push.send", send),
  };
}
