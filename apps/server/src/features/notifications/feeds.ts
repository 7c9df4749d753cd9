/**
 * Changes by others in a cart (`tellCartChange()`), told from the session's activity log: the
 * actor's latest entry names what they did. Every member but the actor hears of it (viewers too,
 * pending requesters not: notify() drops them), but not of a change to a line hidden from them.
 */
import type { ActivityEntry, CartView } from "@cartner/contract";
import { and, desc, eq } from "drizzle-orm";
import { activity } from "../../db/schema.ts";
import type { NotificationDeps } from "./deps.ts";
import { afterAnswer, notify } from "./service.ts";

/** What a cart change's answer tells of its session: enough to know whom to tell. */
export interface CartChangeView {
  session: Pick<CartView["session"], "id" | "name">;
  members: Array<Pick<CartView["members"][number], "userId" | "role">>;
}

/** "Ben added Wine to Weekly shop", for the entry types that change a cart; else null. */
export function changeText(actor: string, entry: ActivityEntry, session: string): string | null {
  switch (entry.type) {
    case "item.added":
      return `${actor} added ${entry.product} to ${session}`;
    case "item.quantity":
      return `${actor} changed ${entry.product} to ${entry.quantity} in ${session}`;
    case "item.removed":
      return `${actor} removed ${entry.product} from ${session}`;
    case "item.restored":
      return `${actor} put ${entry.product} back in ${session}`;
    case "item.shared":
      return entry.with.length > 0
        ? `${actor} shared ${entry.product} with ${entry.with.join(", ")} in ${session}`
        : `${actor} split ${entry.product} by the session's rule in ${session}`;
    case "cart.cleared":
      return `${actor} cleared the cart of ${session}`;
    default:
      return null;
  }
}

/**
 * After committed cart changes: the members hear what `actorId` last did in the session (grouped
 * per reader and session until read): of the actor's latest `changes` entries, each reader is
 * told of those they see beyond `toldBefore` (their count told by the rounds before). A change to
 * a private line is not told to those it is hidden from: each hears of the latest change they
 * may see, and counts only those.
 */
async function noticeCartChange(
  deps: NotificationDeps,
  change: { session: { id: string; name: string }; memberIds: string[]; actorId: string },
  changes: number,
  toldBefore: Map<string, number>,
): Promise<void> {
  const { session, memberIds, actorId } = change;
  const latest = await deps.db
    .select({
      type: activity.type,
      details: activity.details,
      actor: activity.actorName,
      hiddenFrom: activity.hiddenFrom,
    })
    .from(activity)
    .where(and(eq(activity.sessionId, session.id), eq(activity.actorId, actorId)))
    .orderBy(desc(activity.seq))
    .limit(changes);
  // The readers who would hear the same thing, told together.
  const told = new Map<string, { body: string; changes: number; userIds: string[] }>();
  for (const id of memberIds) {
    const seen = latest.filter((e) => !e.hiddenFrom.includes(id));
    const last = seen[0];
    // Those the rounds before told them of are not counted again.
    const fresh = seen.length - (toldBefore.get(id) ?? 0);
    if (!last || fresh < 1) continue;
    toldBefore.set(id, seen.length);
    const entry = { ...(last.details as object), type: last.type } as ActivityEntry;
    const body = changeText(last.actor, entry, session.name);
    if (!body) continue;
    const key = `${fresh} ${body}`;
    const group = told.get(key) ?? { body, changes: fresh, userIds: [] };
    group.userIds.push(id);
    told.set(key, group);
  }
  for (const group of told.values()) {
    await notify(deps, {
      kind: "changes",
      userIds: group.userIds,
      actorId,
      sessionId: session.id,
      title: `Changes in ${session.name}`,
      body: group.body,
      url: `/cart/${session.id}`,
      changes: group.changes,
    });
  }
}

/**
 * After a committed cart change by `actorId`: the session's other members (as the change's
 * view lists them) hear what it was. Nothing is read when there is no one to tell.
 */
export function tellCartChange(
  deps: NotificationDeps,
  view: CartChangeView,
  actorId: string,
): void {
  const { telling } = deps.state;
  const memberIds = view.members
    .filter((m) => m.userId !== actorId && m.role !== "pending")
    .map((m) => m.userId);
  if (memberIds.length === 0) return;
  const key = `${view.session.id} ${actorId}`;
  const inFlight = telling.get(key);
  if (inFlight) {
    inFlight.changes += 1;
    return;
  }
  const state = { changes: 1 };
  telling.set(key, state);
  const change = { session: view.session, memberIds, actorId };
  afterAnswer(
    deps,
    (async () => {
      try {
        // Not before the change's live events: they go first, and neither their NOTIFY nor a
        // read of their members waits behind this notice's statements (one at a time on the
        // embedded database). Changes by the same actor meanwhile are told in this notice.
        await new Promise((resolve) => setImmediate(resolve));
        // Each round reads all the changes counted so far (a later one may already be in the
        // log when an earlier round reads it) and tells each reader of those not yet told.
        const toldBefore = new Map<string, number>();
        let total = 0;
        while (state.changes > 0) {
          total += state.changes;
          state.changes = 0;
          await noticeCartChange(deps, change, total, toldBefore);
        }
      } finally {
        telling.delete(key);
      }
    })(),
  );
}
