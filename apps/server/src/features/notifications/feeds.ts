/**
 * Changes by others in a cart (`tellCartChange()`), told from the session's activity log: the
 * actor's latest entry names what they did. Every member sees every line of the cart (no line is
 * hidden from a member), so every member but the actor hears of it; viewers too, pending
 * requesters not (notify() drops them).
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
 * per reader and session until read); `changes` is how many changes this notice stands for.
 */
async function noticeCartChange(
  deps: NotificationDeps,
  change: { session: { id: string; name: string }; memberIds: string[]; actorId: string },
  changes: number,
): Promise<void> {
  const { session, memberIds, actorId } = change;
  const [last] = await deps.db
    .select({
      type: activity.type,
      details: activity.details,
      actor: activity.actorName,
      hiddenFrom: activity.hiddenFrom,
    })
    .from(activity)
    .where(and(eq(activity.sessionId, session.id), eq(activity.actorId, actorId)))
    .orderBy(desc(activity.seq))
    .limit(1);
  if (!last) return;
  // A change to a private line: those it is hidden from hear nothing of it.
  const told = memberIds.filter((id) => !last.hiddenFrom.includes(id));
  if (told.length === 0) return;
  const entry = { ...(last.details as object), type: last.type } as ActivityEntry;
  const body = changeText(last.actor, entry, session.name);
  if (!body) return;
  await notify(deps, {
    kind: "changes",
    userIds: told,
    actorId,
    sessionId: session.id,
    title: `Changes in ${session.name}`,
    body,
    url: `/cart/${session.id}`,
    changes,
  });
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
        while (state.changes > 0) {
          const changes = state.changes;
          state.changes = 0;
          await noticeCartChange(deps, change, changes);
        }
      } finally {
        telling.delete(key);
      }
    })(),
  );
}
