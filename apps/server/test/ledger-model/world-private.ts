/**
 * Private lines and "ask first" budgets in a world's sessions (decisions 048 and 049), before
 * checkout. A line may be hidden by its adder from some members (never the creator, the adder or
 * a sharer). One joining member may have an "ask first" budget: each of their adds that takes
 * their exact share (the counted lines so far and the new one, fees taken as proportional) over
 * it waits for approval; the model predicts which, leaving a cent or two either way at the edge
 * (the rule compares an exact figure the model reaches by another road). The creator then
 * approves some waiting lines, declines some and leaves the rest, which checkout drops.
 */
import fc from "fast-check";
import { client, type TestApp } from "../helpers.ts";
import { ok } from "./checkout.ts";
import { exactSplit, type Member, type Policy } from "./exact-split.ts";
import { Q } from "./fraction.ts";
import type { Person } from "./model.ts";
import type { CartLine } from "./world.ts";

export type Decision = "approve" | "decline" | "leave";

export interface AskSpec {
  /** Which joining member asks first. */
  who: number;
  /** Their budget in cents. */
  budget: number;
  /** What the creator does with each waiting line, in turn (taken modulo). */
  decisions: Decision[];
}

/** Whom a line is hidden from: indices into the members, most lines none. */
export const hideSpec = fc.oneof(
  { weight: 3, arbitrary: fc.constant<number[]>([]) },
  { weight: 1, arbitrary: fc.uniqueArray(fc.nat(4), { minLength: 1, maxLength: 2 }) },
);

export const askSpec: fc.Arbitrary<AskSpec | null> = fc.option(
  fc.record({
    who: fc.nat(3),
    budget: fc.constantFrom(300, 1500, 4000, 9000),
    decisions: fc.array(fc.constantFrom<Decision>("approve", "decline", "leave"), {
      minLength: 1,
      maxLength: 3,
    }),
  }),
  { freq: 3 },
);

/** Who asks first and their budget, set by the creator before anything is added. */
export interface Asker {
  person: Person;
  budget: number;
}

export async function setAsker(
  t: TestApp,
  creator: Person,
  joining: Person[],
  sessionId: string,
  spec: AskSpec | null | undefined,
): Promise<Asker | null> {
  if (!spec) return null;
  const person = joining[spec.who % joining.length]!;
  ok(
    await client(t, creator.token)("PATCH", `/api/sessions/${sessionId}/members/${person.id}`, {
      budget: spec.budget / 100,
      budgetMode: "ask",
    }),
    200,
    "an ask-first budget",
  );
  return { person, budget: spec.budget };
}

/**
 * Whether the asker's new line must wait (true), must not (false), or is at the budget's edge
 * (null: either). `before` are the cart's lines so far (waiting ones count for nothing).
 */
export function mustWait(
  asker: Asker,
  members: Member[],
  policy: Policy,
  before: readonly CartLine[],
  added: { unitPrice: number; quantity: number },
): boolean | null {
  const counted = before.filter((l) => !l.pending);
  const split = exactSplit(members, { ...policy, fees: "proportional" }, [
    ...counted.map((l) => ({
      total: l.unitPrice * l.quantity,
      adder: l.adder,
      sharers: l.sharers,
    })),
    { total: added.unitPrice * added.quantity, adder: asker.person.id, sharers: [] },
  ]);
  const share = split.shares.get(asker.person.id)!.total;
  if (share.sub(Q.of(asker.budget)).abs().lt(Q.of(2))) return null;
  return share.gt(Q.of(asker.budget));
}

/** Hides a line from the members `spec` names who may be hidden from it; answers whom. */
export async function hide(
  t: TestApp,
  adder: Person,
  cartId: string,
  lineId: string,
  members: Person[],
  sharers: string[],
  spec: readonly number[] | undefined,
): Promise<string[]> {
  const candidates = members.filter((p, i) => i > 0 && p !== adder && !sharers.includes(p.id));
  const from = [
    ...new Set(
      (spec ?? []).flatMap((i) =>
        candidates.length ? [candidates[i % candidates.length]!.id] : [],
      ),
    ),
  ];
  if (from.length === 0) return [];
  ok(
    await client(t, adder.token)("PUT", `/api/carts/${cartId}/lines/${lineId}/hidden-from`, {
      userIds: from,
    }),
    200,
    "hidden-from",
  );
  return from;
}

/**
 * The creator decides the waiting lines as the spec says: approved lines count from then on,
 * declined ones are gone. Answers the lines left (those still waiting are dropped at checkout).
 */
export async function decide(
  t: TestApp,
  creator: Person,
  cartId: string,
  lines: CartLine[],
  spec: AskSpec | null | undefined,
): Promise<CartLine[]> {
  const waiting = lines.filter((l) => l.pending);
  if (!spec || waiting.length === 0) return lines;
  const gone = new Set<CartLine>();
  for (const [k, line] of waiting.entries()) {
    const what = spec.decisions[k % spec.decisions.length]!;
    if (what === "leave") continue;
    const res = await client(t, creator.token)(
      "POST",
      `/api/carts/${cartId}/lines/${line.lineId}/${what}`,
      { message: what === "approve" ? "fine this time" : "not this week" },
    );
    ok(res, 200, `${what} a waiting line`);
    const still = (res.json().cart.products as { _id: string; pending: unknown }[]).find(
      (x) => x._id === line.lineId,
    );
    if (what === "decline" ? still : !still || still.pending !== null) {
      throw new Error(`setup: ${what} left the line ${JSON.stringify(still)}`);
    }
    if (what === "approve") line.pending = false;
    else gone.add(line);
  }
  return lines.filter((l) => !gone.has(l));
}
