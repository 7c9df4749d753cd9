/**
 * Recurring sessions. The creator sets a rule (PUT /sessions/:id/series, a session write); the
 * series then lives on the session as its rule, time zone, anchor and next start. Its next session
 * starts as soon as the session is checked out (a job sent in the checkout's transaction) or at
 * the next occurrence (a job at `series_next_at`), whichever comes first, exactly once: the job's
 * handler locks the session, does nothing unless the series is still on it and due, and moves the
 * series to the new session in the same transaction (a unique index allows one follower per
 * session). The old session stays as it is, as history, and names the session that followed it.
 */
import {
  can,
  ErrorCode,
  QUANTITY_MAX,
  SHARE_CARRYING_ROLES,
  type DroppedReason,
  type LineSubstitute,
  type SeriesBody,
  type Session,
} from "@cartner/contract";
import { and, eq, inArray, sql } from "drizzle-orm";
import { executeRows, type Tx } from "../../db/client.ts";
import { carts, cartLines, orders, sessionMembers, sessions } from "../../db/schema.ts";
import { AppError } from "../../lib/errors.ts";
import { deadlineIn, startDeadline } from "../deadlines/index.ts";
import type { Jobs } from "../jobs/index.ts";
import {
  newSessionCode,
  sessionView,
  toMembers,
  writeSession,
  writeSessionsTogether,
  type SessionRow,
} from "../sessions/index.ts";
import type { SeriesDeps } from "./deps.ts";
import { nextSessionSettings } from "./next-settings.ts";
import {
  anchorOf,
  canonicalRule,
  carriedDeadline,
  nextOccurrence,
  timeOfDayIn,
} from "./occurrences.ts";

/** The job that starts a series' next session: after a checkout (no `at`) or at an occurrence. */
export interface SeriesStartJob {
  sessionId: string;
  /** The occurrence this job was sent for (ISO); stale once the series' next start moved. */
  at?: string;
}

/** A job may be claimed a moment before its time by a clock a little ahead of ours. */
const EARLY_MS = 5_000;

/** Sends the job that starts the next session after this session's checkout, in its transaction. */
export async function afterCheckout(
  jobs: Pick<Jobs, "send">,
  tx: Tx,
  session: SessionRow,
): Promise<void> {
  if (session.seriesRule) await jobs.send("series.start", { sessionId: session.id }, { tx });
}

/** The creator makes the session repeat, changes its rule, or ends its series (null). */
export async function setSeries(
  deps: SeriesDeps,
  sessionId: string,
  userId: string,
  body: SeriesBody,
): Promise<Session> {
  const { db, jobs } = deps;
  const { session } = await writeSession(db, deps, {
    sessionId,
    userId,
    action: "session.series",
    change: async ({ tx, session, now }) => {
      if (body === null) {
        if (!session.seriesRule) return { result: null, version: "unchanged" };
        await tx
          .update(sessions)
          .set({ seriesRule: null, seriesTimeZone: null, seriesAnchor: null, seriesNextAt: null })
          .where(eq(sessions.id, sessionId));
        return { result: null, activity: { type: "series.updated", details: { ended: true } } };
      }
      // A rule without a time of day keeps the session's, in the rule's zone: its series' next
      // start when it repeats already, else when it was created.
      const current = timeOfDayIn(session.seriesNextAt ?? session.createdAt, body.timeZone);
      const rule = canonicalRule(body.rule, current).text;
      let anchor: Date;
      let nextAt: Date | null;
      try {
        anchor = anchorOf(now, body.timeZone);
        nextAt = nextOccurrence(rule, body.timeZone, anchor, now);
      } catch {
        // A zone this runtime's Intl knows but the recurrence library does not read.
        throw new AppError(400, ErrorCode.VALIDATION, "Invalid timeZone: not a known time zone", {
          fields: { timeZone: "Not a known time zone" },
        });
      }
      if (!nextAt) {
        throw new AppError(400, ErrorCode.VALIDATION, "Invalid rule: it has no occurrence left", {
          fields: { rule: "It has no occurrence left" },
        });
      }
      await tx
        .update(sessions)
        .set({
          seriesRule: rule,
          seriesTimeZone: body.timeZone,
          seriesAnchor: anchor,
          seriesNextAt: nextAt,
        })
        .where(eq(sessions.id, sessionId));
      await jobs.send(
        "series.start",
        { sessionId, at: nextAt.toISOString() } satisfies SeriesStartJob,
        { at: nextAt, tx },
      );
      const details = { rule, timeZone: body.timeZone, nextAt: nextAt.toISOString() };
      return { result: null, activity: { type: "series.updated", details } };
    },
    events: (_, row) => [toMembers("session.updated", row)],
  });
  return sessionView(deps, session, userId);
}

/** Whether the job is due for the session as it is now (locked). */
async function due(tx: Tx, session: SessionRow, job: SeriesStartJob, now: Date) {
  if (!session.seriesRule || !session.seriesNextAt) return false;
  if (job.at !== undefined) {
    // A job for an occurrence the series has since moved past (or a changed rule) is stale.
    return (
      session.seriesNextAt.getTime() === Date.parse(job.at) &&
      now.getTime() >= session.seriesNextAt.getTime() - EARLY_MS
    );
  }
  const [order] = await tx
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.sessionId, session.id));
  return order !== undefined;
}

/**
 * Copies the members (not pending requesters) with their roles and budgets, the deadline rule,
 * and the staple lines at today's prices: a line whose adder is no longer a paying member, whose product is
 * gone or out of stock is dropped and named.
 */
async function fillNewSession(
  jobs: Pick<Jobs, "send">,
  tx: Tx,
  old: SessionRow,
  oldCartId: string,
  now: Date,
) {
  const nextAt = nextOccurrence(
    old.seriesRule!,
    old.seriesTimeZone!,
    old.seriesAnchor!,
    new Date(Math.max(old.seriesNextAt!.getTime(), now.getTime())),
  );
  const [created] = await tx
    .insert(sessions)
    .values(nextSessionSettings(old, { code: newSessionCode(), now, nextAt }))
    .returning();
  const session = created!;
  const members = await tx
    .select()
    .from(sessionMembers)
    .where(
      and(
        eq(sessionMembers.sessionId, old.id),
        inArray(sessionMembers.role, ["creator", "participant", "viewer"]),
      ),
    )
    .orderBy(sessionMembers.createdAt);
  await tx.insert(sessionMembers).values(
    members.map((m, i) => ({
      sessionId: session.id,
      userId: m.userId,
      role: m.role,
      budgetCents: m.budgetCents,
      budgetMode: m.budgetMode,
      child: m.child,
      // In the order they joined the old session.
      createdAt: new Date(now.getTime() + i),
    })),
  );
  const [cart] = await tx
    .insert(carts)
    .values({ sessionId: session.id, createdAt: now, updatedAt: now })
    .returning({ id: carts.id });
  // The deadline rule: as far before the new session's next start as it was before the old
  // one's, with the same reminders and automatic checkout (none after a series' last session).
  const deadline = await deadlineIn(tx, old.id);
  if (deadline && nextAt) {
    const closesAt = carriedDeadline(
      deadline.closesAt,
      old.seriesNextAt!,
      nextAt,
      old.seriesTimeZone!,
    );
    const { remindAt, autoCheckout } = deadline;
    await startDeadline(tx, jobs, session.id, { closesAt, remindAt, autoCheckout }, now);
  }

  const paying = new Set(
    members
      .filter((m) => (SHARE_CARRYING_ROLES as readonly string[]).includes(m.role))
      .map((m) => m.userId),
  );
  const staples = await executeRows<{
    productId: string | null;
    /** A free line's own name and estimate, note and substitute (carried as they are). */
    freeName: string | null;
    estimateCents: number | null;
    note: string | null;
    substitute: LineSubstitute;
    name: string | null;
    stock: number | null;
    priceCents: number | null;
    addedBy: string;
    quantity: number;
    sharedWith: string[];
    hiddenFrom: string[];
  }>(
    tx,
    sql`select l.product_id as "productId", p.name, p.stock, p.price_cents as "priceCents",
            l.added_by as "addedBy", l.quantity, l.shared_with as "sharedWith",
            l.hidden_from as "hiddenFrom",
            l.name as "freeName", l.unit_price_cents as "estimateCents", l.note, l.substitute
          from ${cartLines} l left join products p on p.id = l.product_id
          where l.cart_id = ${oldCartId} and l.staple
          order by l.added_at, l.id`,
  );
  const dropped: { name: string; reason: DroppedReason }[] = [];
  const taken = new Map<string, number>();
  let carried = 0;
  // A private staple stays hidden from the members it was hidden from who are in the new
  // session, never from its adder nor from whoever sees every private line (the creator).
  const roleOf = new Map(members.map((m) => [m.userId, m.role]));
  const hiddenIn = (line: { hiddenFrom: string[]; addedBy: string }) =>
    line.hiddenFrom.filter(
      (id) => id !== line.addedBy && roleOf.has(id) && !can(roleOf.get(id), "cart.seePrivate"),
    );
  // A dropped staple is named in the new session's log, which everyone reads: not a private one.
  const drop = (
    line: { hiddenFrom: string[]; addedBy: string },
    name: string,
    reason: DroppedReason,
  ) => {
    if (hiddenIn(line).length === 0) dropped.push({ name, reason });
  };
  for (const line of staples) {
    const sharedWith = line.sharedWith.filter((id) => paying.has(id));
    const hiddenFrom = hiddenIn(line);
    const addedAt = new Date(now.getTime() + carried++);
    const { note, substitute } = line;
    if (line.productId === null) {
      // A free line has no stock: carried as it was, at its estimate.
      if (!paying.has(line.addedBy)) {
        drop(line, line.freeName!, "adder_gone");
        continue;
      }
      await tx.insert(cartLines).values({
        cartId: cart!.id,
        productId: null,
        name: line.freeName,
        unitPriceCents: line.estimateCents,
        ...{ note, substitute, sharedWith, hiddenFrom, addedAt, updatedAt: now },
        addedBy: line.addedBy,
        quantity: line.quantity,
        staple: true,
      });
      continue;
    }
    const name = line.name ?? "A product no longer sold";
    if (line.name === null || line.stock === null) {
      drop(line, name, "missing");
      continue;
    }
    if (!paying.has(line.addedBy)) {
      drop(line, name, "adder_gone");
      continue;
    }
    const left = line.stock - (taken.get(line.productId) ?? 0);
    const quantity = Math.min(line.quantity, left, QUANTITY_MAX);
    if (quantity < 1) {
      drop(line, name, "out_of_stock");
      continue;
    }
    taken.set(line.productId, (taken.get(line.productId) ?? 0) + quantity);
    // Priced at the product's price of the day (an active cart's lines have no frozen price).
    await tx.insert(cartLines).values({
      cartId: cart!.id,
      productId: line.productId,
      addedBy: line.addedBy,
      quantity,
      addedPriceCents: line.priceCents,
      ...{ note, substitute, sharedWith, hiddenFrom, addedAt, updatedAt: now },
      staple: true,
    });
  }
  return { session, dropped, nextAt };
}

/**
 * The job's handler: starts the series' next session if it is due, once. The old session's
 * write (locked first) gives up the series and names its follower; the new session's write
 * logs `series.started` with what was dropped; its members are told it started.
 */
export async function startNextSession(
  deps: Pick<SeriesDeps, "db" | "clock" | "events" | "jobs">,
  job: SeriesStartJob,
): Promise<void> {
  const { db, jobs } = deps;
  const [current] = await db
    .select({ creatorId: sessions.creatorId, rule: sessions.seriesRule })
    .from(sessions)
    .where(eq(sessions.id, job.sessionId));
  if (!current?.rule) return;
  await writeSessionsTogether(db, deps, async (write) => {
    const { result: started } = await write({
      sessionId: job.sessionId,
      userId: current.creatorId,
      action: null,
      active: false,
      change: async ({ tx, session, cartId, now }) => {
        if (!(await due(tx, session, job, now))) return { result: null, version: "unchanged" };
        const filled = await fillNewSession(jobs, tx, session, cartId, now);
        await tx
          .update(sessions)
          .set({ seriesRule: null, seriesTimeZone: null, seriesAnchor: null, seriesNextAt: null })
          .where(eq(sessions.id, session.id));
        if (filled.nextAt) {
          const next: SeriesStartJob = {
            sessionId: filled.session.id,
            at: filled.nextAt.toISOString(),
          };
          await jobs.send("series.start", next, { at: filled.nextAt, tx });
        }
        return {
          result: filled,
          activity: { type: "series.continued", details: { sessionId: filled.session.id } },
        };
      },
      events: (filled, row) => (filled ? [toMembers("session.updated", row)] : []),
    });
    if (!started) return;
    await write({
      sessionId: started.session.id,
      userId: started.session.creatorId,
      action: null,
      change: async () => ({
        result: null,
        activity: {
          type: "series.started",
          details: { fromSessionId: job.sessionId, dropped: started.dropped },
        },
      }),
      events: (_, row) => [toMembers("session.started", row, { fromSessionId: job.sessionId })],
    });
  });
}
