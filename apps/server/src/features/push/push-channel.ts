/**
 * Web Push: a notification goes to every device of the person that allowed it. deliver() sends
 * one "push.send" job per device; the job encrypts the message to the device's keys and signs
 * the request with the server's VAPID key (the `web-push` library), and posts it to the device's
 * push service. A push service answering 404 or 410 says the device unsubscribed: its row goes.
 * Network failures, 429 and 5xx are retried with backoff (features/jobs QUEUES).
 *
 * The endpoint is a URL a user gave, so it is posted through lib/public-fetch.ts: https on port
 * 443 to a name whose every address is public, checked as the connection opens, unless its origin
 * is one of PUSH_SERVICE_ORIGINS. An endpoint refused there is no push service: its row goes too,
 * without another try (the browser subscribes again when its person next turns pushes on). Each
 * job waits out its recipient's quiet hours (features/notifications/quiet-hours.ts).
 */
import type { PushPayload } from "@cartner/contract";
import { and, eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import webpush from "web-push";
import type { Db } from "../../db/client.ts";
import { pushSubscriptions } from "../../db/schema.ts";
import type { Clock } from "../../lib/clock.ts";
import { NotPublicError, type PublicFetch } from "../../lib/public-fetch.ts";
import type { Jobs } from "../jobs/index.ts";
import { appPath, type Channel, type Notification } from "./channel.ts";

/** How long a push service keeps a message for a device that is offline. */
const TTL_SECONDS = 24 * 3600;
/** A push service that has not answered by then is tried again later. */
const SEND_TIMEOUT_MS = 10_000;
/** A push service answers with a short status text or nothing; more is not read. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

interface PushJob {
  subscriptionId: string;
  /** The device's owner when it was sent, whose quiet hours hold it (absent in older jobs). */
  userId?: string;
  payload: PushPayload;
  /** ISO: not sent from then on. */
  expiresAt?: string | undefined;
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
  /** Posts to endpoints: public addresses only, besides PUSH_SERVICE_ORIGINS. */
  fetch: PublicFetch;
  /** The quiet hours rule: when a push to this account may go, if not now. */
  heldUntil: (userId: string) => Promise<Date | null>;
}): Channel & { start(): Promise<void> } {
  const { db, jobs, clock, log } = deps;
  const forget = (device: { id: string; endpoint: string }) =>
    db
      .delete(pushSubscriptions)
      .where(
        and(eq(pushSubscriptions.id, device.id), eq(pushSubscriptions.endpoint, device.endpoint)),
      );
  const vapidDetails = { subject: deps.subject, ...deps.vapid };

  async function send({ subscriptionId, payload, expiresAt }: PushJob): Promise<void> {
    if (expiresAt && clock.now().getTime() >= Date.parse(expiresAt)) return;
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
    // The request is sent here, so the push service's answer is read here (web-push would send
    // over https alone); the body's length is set by the client.
    const { "Content-Length": _length, ...headers } = request.headers as Record<string, string>;
    let response;
    try {
      response = await deps.fetch(request.endpoint, {
        method: "POST",
        headers,
        body: new Uint8Array(request.body),
        timeoutMs: SEND_TIMEOUT_MS,
        maxBytes: MAX_ANSWER_BYTES,
      });
    } catch (error) {
      if (!(error instanceof NotPublicError)) throw error;
      log.warn({ reason: error.message }, "push endpoint is not a public address: device removed");
      await forget(device);
      return;
    }
    if (response.status >= 200 && response.status < 300) {
      await db
        .update(pushSubscriptions)
        .set({ lastSuccessAt: clock.now() })
        .where(eq(pushSubscriptions.id, device.id));
      return;
    }
    if (response.status === 404 || response.status === 410) {
      // Unsubscribed or expired: the endpoint will never take a message again.
      await forget(device);
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
    async deliver({ user, notification, expiresAt }) {
      const devices = await db
        .select({ id: pushSubscriptions.id })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, user.id));
      const payload = pushPayload(notification);
      for (const device of devices) {
        const job: PushJob = { subscriptionId: device.id, userId: user.id, payload, expiresAt };
        await jobs.send("push.send", job);
      }
    },
    start: () =>
      jobs.work("push.send", send, {
        holdUntil: async (job: PushJob) => (job.userId ? deps.heldUntil(job.userId) : null),
      }),
  };
}
