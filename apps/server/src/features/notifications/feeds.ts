/**
 * Changes by others in a cart (`tellCartChange()`), told from the session's activity log: the
 * actor's latest entry names what they did. Every member but the actor hears of it (viewers too,
 * pending requesters not: notify() drops them), but not of a change to a line hidden from them.
 */
import type { ActivityEntry, CartView } from "@cartner/contract";
import { sql } from "drizzle-orm";
import { executeRows } from "../../db/client.ts";
import { groupCommit } from "../../lib/group-commit.ts";
import type { NoticeState, NotificationDeps } from "./deps.ts";
import { afterAnswer, notifyEach } from "./service.ts";
import type { NotifyInput } from "./types.ts";

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

/** One round of one actor's changes in a session: what noticeCartChanges() tells. */
interface Round {
  change: { session: { id: string; name: string }; memberIds: string[]; actorId: string };
  /** How many of the actor's latest entries it is about. */
  changes: number;
  /** Each reader's count told by the rounds before. */
  toldBefore: Map<string, number>;
}

/**
 * After committed cart changes: the members hear what each round's actor last did in its session
 * (grouped per reader and session until read): of the actor's latest `changes` entries, each
 * reader is told of those they see beyond `toldBefore` (their count told by the rounds before). A
 * change to a private line is not told to those it is hidden from: each hears of the latest
 * change they may see, and counts only those. The rounds that wait together are read in one
 * query and told by one notifyEach().
 */
async function noticeCartChanges(deps: NotificationDeps, rounds: Round[]): Promise<void[]> {
  const asked = rounds.map((r, i) => ({
    i,
    sessionId: r.change.session.id,
    actorId: r.change.actorId,
    n: r.changes,
  }));
  const entries = await executeRows<{
    i: number;
    type: string;
    details: unknown;
    actor: string;
    hiddenFrom: string[];
  }>(
    deps.db,
    sql`select a.i, e.type, e.details, e.actor_name as actor, e.hidden_from as "hiddenFrom"
      from json_to_recordset(${JSON.stringify(asked)}::json)
        as a(i int, "sessionId" uuid, "actorId" uuid, n int)
      cross join lateral (
        select type, details, actor_name, hidden_from, seq from activity
        where session_id = a."sessionId" and actor_id = a."actorId"
        order by seq desc limit a.n) e
      order by a.i, e.seq desc`,
  );
  const inputs: NotifyInput[] = [];
  for (const [i, { change, toldBefore }] of rounds.entries()) {
    const { session, memberIds, actorId } = change;
    const latest = entries.filter((e) => e.i === i);
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
      inputs.push({
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
  if (inputs.length > 0) await notifyEach(deps, inputs);
  return rounds.map(() => undefined);
}

/**
 * The rounds of cart notices, created once per state: those that come while one batch of them is
 * being told wait and go together as the next (group commit), so under a burst of changes across
 * sessions a few statements tell many changes.
 */
const roundsOf = new WeakMap<NoticeState, (round: Round) => Promise<void>>();

function tellRound(deps: NotificationDeps, round: Round): Promise<void> {
  let tell = roundsOf.get(deps.state);
  if (!tell) {
    tell = groupCommit((rounds: Round[]) => noticeCartChanges(deps, rounds), 64, "cart_notices");
    roundsOf.set(deps.state, tell);
  }
  return tell(round);
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
        // Each round reads all the changes counted so far (a later one may already be in the
        // log when an earlier round reads it) and tells each reader of those not yet told. A
        // round starts after this turn (group commit), so not before the change's live events:
        // neither their NOTIFY nor a read of their members waits behind its statements (one at a
        // time on the embedded database), and changes by the same actor meanwhile join it.
        const toldBefore = new Map<string, number>();
        let total = 0;
        while (state.changes > 0) {
          total += state.changes;
          state.changes = 0;
          await tellRound(deps, { change, changes: total, toldBefore });
        }
      } finally {
        telling.delete(key);
      }
    })(),
  );
}
