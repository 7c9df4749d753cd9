/**
 * Changes by others in a cart, told from the session's activity log: the actor's latest entry names
 * what they did. Every member sees every line of the cart (no line is hidden from a member), so
 * every member but the actor hears of it; viewers too, pending requesters not (notify() drops them).
 */
import type { ActivityEntry } from "@cartner/contract";
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { activity } from "../../db/schema.ts";
import type { NotifyInput } from "./types.ts";

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
export async function noticeCartChange(
  db: Db,
  notices: { notify(input: NotifyInput): Promise<unknown> },
  change: { session: { id: string; name: string }; memberIds: string[]; actorId: string },
  changes: number,
): Promise<void> {
  const { session, memberIds, actorId } = change;
  const [last] = await db
    .select({ type: activity.type, details: activity.details, actor: activity.actorName })
    .from(activity)
    .where(and(eq(activity.sessionId, session.id), eq(activity.actorId, actorId)))
    .orderBy(desc(activity.seq))
    .limit(1);
  if (!last) return;
  const entry = { ...(last.details as object), type: last.type } as ActivityEntry;
  const body = changeText(last.actor, entry, session.name);
  if (!body) return;
  await notices.notify({
    kind: "changes",
    userIds: memberIds,
    actorId,
    sessionId: session.id,
    title: `Changes in ${session.name}`,
    body,
    url: `/cart/${session.id}`,
    changes,
  });
}
