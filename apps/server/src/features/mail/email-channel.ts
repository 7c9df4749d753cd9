/**
 * Mail for what matters when someone is away (the notification service decides who and when,
 * and calls deliver(): features/push/channel.ts). A reminder, a payment or a membership change
 * is one mail; a checkout is the order's own checkout mail to each sharer (features/orders), so
 * only someone without a share gets a notice of it. Changes by others in a session wait for a
 * digest: the first change since the last digest schedules it an hour later, later ones join
 * it, so a member gets at most one digest an hour per session. Every mail is a "mail.send" job
 * (features/mail/queue.ts), retried with backoff.
 */
import { fromCents } from "@cartner/contract";
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import { executeRows, type Db } from "../../db/client.ts";
import {
  carts,
  mailDigestItems,
  mailDigests,
  orderShares,
  sessionMembers,
  sessions,
  users,
} from "../../db/schema.ts";
import { formatMoney } from "../../lib/money.ts";
import { splitOf, type CartView } from "../carts/index.ts";
import { orderOf, shareStatusLabel } from "../orders/index.ts";
import { appPath, type Channel, type OutgoingNotice } from "../push/index.ts";
import type { MailDeps } from "./deps.ts";
import { digestMail, noticeMail } from "./notice-mail.ts";
import type { MailJobs } from "./queue.ts";

/** The shortest time between two digests of one session to one member. */
export const DIGEST_INTERVAL_MS = 60 * 60 * 1000;
/** Changes one digest takes at most; more wait for the next. */
const DIGEST_MAX_ITEMS = 200;

/** An app path as an absolute link in a mail. */
const link = (deps: Pick<MailDeps, "publicUrl">, url: string) =>
  `${deps.publicUrl.replace(/\/+$/, "")}${appPath(url)}`;

/** The person as they are now; nobody for a deleted account. */
async function recipient(db: Db, userId: string) {
  const [user] = await db
    .select({ name: users.name, email: users.email, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, userId));
  return user && !user.deletedAt ? user : undefined;
}

/** "Your share so far: $12.40" in a session whose cart is still open. */
async function sessionShare(
  deps: Pick<MailDeps, "db" | "currency">,
  sessionId: string,
  userId: string,
): Promise<string | undefined> {
  const { db } = deps;
  const [cart] = await db
    .select({ id: carts.id, status: carts.status })
    .from(carts)
    .where(eq(carts.sessionId, sessionId));
  if (!cart || cart.status !== "active") return undefined;
  const [row] = await executeRows<{ view: CartView }>(
    db,
    sql`select cart_view(${cart.id}) as view`,
  );
  if (!row) return undefined;
  const share = splitOf(row.view).shares.find((s) => s.userId === userId);
  return share
    ? `Your share so far: ${formatMoney(fromCents(share.total), deps.currency)}`
    : undefined;
}

/** "Your share of CRT-000042: $12.40 (Paid)", as the book says it stands. */
async function orderShare(
  deps: Pick<MailDeps, "db" | "currency">,
  orderId: string,
  userId: string,
): Promise<string | undefined> {
  const order = await orderOf(deps.db, orderId);
  const share = order?.split.find((s) => s.userId === userId);
  if (!order || !share) return undefined;
  return `Your share of ${order.number}: ${formatMoney(share.total, deps.currency)} (${shareStatusLabel(share)})`;
}

const hasShare = async (db: Db, orderId: string, userId: string) =>
  (
    await db
      .select({ userId: orderShares.userId })
      .from(orderShares)
      .where(and(eq(orderShares.orderId, orderId), eq(orderShares.userId, userId)))
  ).length > 0;

/** A "mail.send" job: one notification to one person, unless it no longer holds. */
export async function sendNotice(
  deps: MailDeps,
  { userId, notification, expiresAt }: MailJobs["notice"],
): Promise<void> {
  if (expiresAt && deps.clock.now().getTime() >= Date.parse(expiresAt)) return;
  const to = await recipient(deps.db, userId);
  if (!to) return;
  // What the member owes on the order paid for (a reminder's text says their share so far).
  const { kind, orderId } = notification;
  const share =
    (kind === "payment" || kind === "checkout") && orderId
      ? await orderShare(deps, orderId, userId)
      : undefined;
  await deps.mailer.send(noticeMail(to, notification, link(deps, notification.url), share));
}

/**
 * A "mail.send" job at a digest's time: every change waiting for the member in that session,
 * in one mail. Once it went, the digest and its changes go in one transaction; a change that
 * arrived meanwhile starts the next digest an hour from now.
 */
export async function sendDigest(
  deps: MailDeps,
  { userId, sessionId }: MailJobs["digest"],
): Promise<void> {
  const { db, mails, mailer, clock } = deps;
  const pending = and(eq(mailDigests.userId, userId), eq(mailDigests.sessionId, sessionId));
  const ofDigest = and(
    eq(mailDigestItems.userId, userId),
    eq(mailDigestItems.sessionId, sessionId),
  );
  const [digest] = await db.select().from(mailDigests).where(pending);
  if (!digest) return;
  const [session] = await db
    .select({ name: sessions.name, member: sessionMembers.userId })
    .from(sessions)
    .leftJoin(
      sessionMembers,
      and(eq(sessionMembers.sessionId, sessions.id), eq(sessionMembers.userId, userId)),
    )
    .where(eq(sessions.id, sessionId));
  const to = await recipient(db, userId);
  const items = await db
    .select()
    .from(mailDigestItems)
    .where(ofDigest)
    .orderBy(asc(mailDigestItems.createdAt), asc(mailDigestItems.id))
    .limit(DIGEST_MAX_ITEMS);
  // Someone who left the session (or the app) hears no more of it.
  if (to && session?.member && items.length > 0) {
    const share = await sessionShare(deps, sessionId, userId);
    const newest = items[items.length - 1]!;
    await mailer.send(
      digestMail(
        to,
        { name: session.name, link: link(deps, newest.url) },
        items.map((item) => ({ title: item.title, body: item.body, link: link(deps, item.url) })),
        share,
      ),
    );
  }
  await db.transaction(async (tx) => {
    // First the digest's row: a change being added holds it until it commits (deliver()), so
    // the count below sees that change.
    await tx.delete(mailDigests).where(pending);
    if (items.length > 0) {
      await tx.delete(mailDigestItems).where(
        inArray(
          mailDigestItems.id,
          items.map((item) => item.id),
        ),
      );
    }
    const [{ n } = { n: 0 }] = await tx
      .select({ n: count() })
      .from(mailDigestItems)
      .where(ofDigest);
    if (n > 0) {
      const dueAt = new Date(clock.now().getTime() + DIGEST_INTERVAL_MS);
      await tx.insert(mailDigests).values({ userId, sessionId, dueAt });
      await mails.send("digest", { userId, sessionId }, { tx, at: dueAt });
    }
  });
}

/**
 * The email channel's deliver(): a change by others joins the member's digest of its session (or
 * starts one); anything else is one notice mail on the queue.
 */
export async function deliverByEmail(
  deps: MailDeps,
  { user, notification, expiresAt }: OutgoingNotice,
): Promise<void> {
  const { db, mails, clock } = deps;
  const { kind, sessionId, orderId } = notification;
  if (kind === "changes" && sessionId) {
    const now = clock.now();
    const dueAt = new Date(now.getTime() + DIGEST_INTERVAL_MS);
    await db.transaction(async (tx) => {
      await tx.insert(mailDigestItems).values({
        userId: user.id,
        sessionId,
        title: notification.title,
        body: notification.body,
        url: appPath(notification.url),
        createdAt: now,
      });
      // Joins the digest on its way, else starts one; either way the row stays locked until
      // this commits, so a digest being sent sees this change or leaves the next one to it.
      const [row] = await executeRows<{ created: boolean }>(
        tx,
        sql`insert into ${mailDigests} (user_id, session_id, due_at)
          values (${user.id}, ${sessionId}, ${dueAt})
          on conflict (user_id, session_id) do update set due_at = ${mailDigests.dueAt}
          returning (xmax = 0) as created`,
      );
      if (row?.created) {
        await mails.send("digest", { userId: user.id, sessionId }, { tx, at: dueAt });
      }
    });
    return;
  }
  // The sharer's checkout mail, with their share and its delivery status, is the order's own.
  if (kind === "checkout" && orderId && (await hasShare(db, orderId, user.id))) return;
  await mails.send("notice", {
    userId: user.id,
    notification: {
      kind,
      title: notification.title,
      body: notification.body,
      url: appPath(notification.url),
      sessionId,
      orderId,
    },
    expiresAt,
  });
}

/**
 * The email channel as the notification service takes its channels (objects with deliver(),
 * which tests replace with recording ones): registers the "notice" and "digest" mail jobs'
 * handlers on the queue, and delivers with deliverByEmail(). It holds nothing of its own.
 */
export function createEmailChannel(deps: MailDeps): Channel {
  deps.mails.handle("notice", (job) => sendNotice(deps, job));
  deps.mails.handle("digest", (job) => sendDigest(deps, job));
  return { deliver: (notice) => deliverByEmail(deps, notice) };
}
