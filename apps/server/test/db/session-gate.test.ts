/**
 * The gate, `session_gate()`, decides from the contract's permissions table: every action, for
 * every caller, in every state a session can be in, answers what the table says (PGlite and
 * PostgreSQL). The table reaches the gate as `permission_rule()`, made from it on every start,
 * so a rule changed in the contract changes the database's answer with no SQL edited.
 */
import {
  ACTIONS,
  CALLERS,
  can,
  needsOf,
  OPEN_SETTINGS,
  type Action,
  type LinkRole,
  type OpenSetting,
  type SessionCaller,
} from "@cartner/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { freshDatabase } from "../helpers.ts";

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => database?.close());

const now = new Date("2026-11-29T12:00:00Z");
const earlier = new Date("2026-11-29T11:00:00Z");
const later = new Date("2026-11-29T13:00:00Z");

/** The states the gate tells apart, as lock_session() and cart_write() read them. */
const STATES = {
  open: { status: "active", order: null, closesAt: later, lockedAt: null },
  "past the deadline": { status: "active", order: null, closesAt: earlier, lockedAt: null },
  "lock recorded": { status: "active", order: null, closesAt: later, lockedAt: earlier },
  ended: { status: "ended", order: null, closesAt: null, lockedAt: null },
  "checked out": { status: "ended", order: 42, closesAt: null, lockedAt: null },
} as const;
type State = keyof typeof STATES;

/** The rule as the table and its `needs` state it, in the gate's order. */
function expected(
  action: Action | null,
  caller: SessionCaller,
  state: State,
  open: readonly OpenSetting[] = [],
): string {
  if (action) {
    if (caller === "stranger" || (caller === "pending" && !can("pending", action, open))) {
      return "not_member";
    }
    if (!can(caller, action, open)) return "role";
  }
  const s = STATES[state];
  if (s.status !== "active") return s.order == null ? "ended" : "checked_out";
  const closed = s.lockedAt != null || (s.closesAt != null && now >= s.closesAt);
  if (action && needsOf(action) === "open cart" && closed) return "locked";
  return "ok";
}

async function gate(
  action: Action | null,
  caller: SessionCaller | LinkRole,
  state: State,
  open: readonly OpenSetting[] = [],
): Promise<string> {
  const s = STATES[state];
  const role = caller === "stranger" ? null : caller;
  const [row] = await database.rows<{ verdict: string }>(sql`
    select session_gate(${action}::text, ${role}::text, ${s.status}::text, ${s.order}::integer,
      ${s.closesAt?.toISOString() ?? null}::timestamptz,
      ${s.lockedAt?.toISOString() ?? null}::timestamptz, ${now.toISOString()}::timestamptz,
      ${`{${open.join(",")}}`}::text[])
      as verdict`);
  return row!.verdict;
}

describe("session_gate() decides from the contract's permissions table", () => {
  it("answers every action, caller and state as the table says, with and without the settings that open an action", async () => {
    const got: string[] = [];
    const want: string[] = [];
    for (const open of [[], OPEN_SETTINGS]) {
      for (const action of ACTIONS) {
        for (const caller of CALLERS) {
          for (const state of Object.keys(STATES) as State[]) {
            const name = `${action} ${caller} ${state} [${open.join(",")}]`;
            got.push(`${name}: ${await gate(action, caller, state, open)}`);
            want.push(`${name}: ${expected(action, caller, state, open)}`);
          }
        }
      }
    }
    expect(got).toEqual(want);
  });

  it("lets a look-only link that works see an active session's list, and do nothing else", async () => {
    for (const state of Object.keys(STATES) as State[]) {
      const s = STATES[state];
      const closed = s.order == null ? "ended" : "checked_out";
      expect(await gate("session.viewByLink", "look", state), state).toBe(
        s.status === "active" ? "ok" : closed,
      );
    }
    for (const action of ACTIONS.filter((a) => a !== "session.viewByLink")) {
      expect(await gate(action, "look", "open"), action).toBe("role");
    }
  });

  it("lets a participant check out only where the session opened checkout to its members", async () => {
    expect(await gate("session.checkout", "participant", "open")).toBe("role");
    expect(await gate("session.checkout", "participant", "open", ["checkoutBy"])).toBe("ok");
    expect(await gate("session.checkout", "viewer", "open", ["checkoutBy"])).toBe("role");
    // The setting opens only the actions whose rule names it.
    expect(await gate("cart.clear", "participant", "open", ["checkoutBy"])).toBe("role");
  });

  it("closes only the cart's actions at the deadline", async () => {
    expect(await gate("cart.add", "participant", "past the deadline")).toBe("locked");
    expect(await gate("cart.clear", "creator", "lock recorded")).toBe("locked");
    // The creator still checks out, and members still mark themselves done, after it.
    expect(await gate("session.checkout", "creator", "past the deadline")).toBe("ok");
    expect(await gate("member.ready", "participant", "past the deadline")).toBe("ok");
  });

  it("checks only the session's state for a write whose caller need not be a member", async () => {
    expect(await gate(null, "stranger", "open")).toBe("ok");
    expect(await gate(null, "stranger", "ended")).toBe("ended");
    expect(await gate(null, "stranger", "checked out")).toBe("checked_out");
  });

  it("refuses an action the table does not have", async () => {
    await expect(gate("cart.steal" as Action, "creator", "open")).rejects.toThrow(/no rule/);
  });
});
