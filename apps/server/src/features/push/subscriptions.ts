/**
 * The devices that asked for Web Push: one row per push service endpoint, owned by whoever posted
 * it last (a browser another person signs in on becomes theirs), at most MAX_DEVICES per account.
 */
import type { PushSubscriptionBody } from "@cartner/contract";
import { and, asc, count, eq, inArray } from "drizzle-orm";
import { pushSubscriptions } from "../../db/schema.ts";
import { invalidFields } from "../../lib/errors.ts";
import { publicUrlProblem } from "../../lib/public-fetch.ts";
import type { PushDeps } from "./deps.ts";

/** Devices one account may have subscribed; a new one past this removes the oldest. */
export const MAX_DEVICES = 20;

/**
 * Why the server will not post to this endpoint, or undefined. The server sends to whatever URL
 * a user gives it, so it must look like a push service's: https on port 443 on a public host name
 * (lib/public-fetch.ts), unless its origin is one of PUSH_SERVICE_ORIGINS (a self-hosted service,
 * a test's stand-in). Where the name leads is checked again at every send.
 */
export function endpointProblem(endpoint: string, serviceOrigins: string[]): string | undefined {
  const problem = publicUrlProblem(endpoint, {
    protocols: ["https:"],
    trustedOrigins: serviceOrigins,
  });
  return problem && `endpoint ${problem}`;
}

/** Keeps the device for the user (the same endpoint again: its owner and keys change). */
export async function subscribeDevice(
  deps: PushDeps,
  userId: string,
  body: PushSubscriptionBody,
): Promise<void> {
  const problem = endpointProblem(body.endpoint, deps.serviceOrigins);
  if (problem) throw invalidFields({ endpoint: problem });
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await tx
      .insert(pushSubscriptions)
      .values({
        userId,
        endpoint: body.endpoint,
        p256dh: body.keys.p256dh,
        auth: body.keys.auth,
        createdAt: now,
      })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { userId, p256dh: body.keys.p256dh, auth: body.keys.auth },
      });
    const [{ n } = { n: 0 }] = await tx
      .select({ n: count() })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId));
    if (n <= MAX_DEVICES) return;
    const oldest = await tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .orderBy(asc(pushSubscriptions.createdAt), asc(pushSubscriptions.id))
      .limit(n - MAX_DEVICES);
    await tx.delete(pushSubscriptions).where(
      inArray(
        pushSubscriptions.id,
        oldest.map((o) => o.id),
      ),
    );
  });
}

/** Forgets the caller's own device; another's endpoint, or an unknown one, changes nothing. */
export async function unsubscribeDevice(
  deps: Pick<PushDeps, "db">,
  userId: string,
  endpoint: string,
): Promise<void> {
  await deps.db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, userId)));
}
