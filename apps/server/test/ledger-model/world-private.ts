/**
 * Private lines and "ask first" budgets in a world's sessions (decisions 048 and 049), before
 * checkout. A line may be hidden by its adder from some members (never the creator or the adder;
 * a member who shares its cost may be: they pay a part of what they do not see). One joining
 * member may have an "ask first" budget: each of their adds that takes their exact share (the
 * counted lines so far and the new one, fees taken as proportional) over it waits for approval;
 * the model predicts which, leaving a cent or two either way at the edge (the rule compares an
 * exact figure the model reaches by another road). The creator may name a joining member as
 * approver (perhaps the asker). Each waiting line is approved, declined or left, by the creator
 * or by the approver: a line hidden from the approver does not exist for them (404), and an
 * approver does not approve their own line (403); the creator then decides it. Lines left wait
 * and checkout drops them (world-leaving.ts: the asker may leave first).
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
  /** What is done with each waiting line, in turn (taken modulo). */
  decisions: Decision[];
  /** A joining member (index, modulo) the creator names approver; none when absent or null. */
  approver?: number | null;
  /** Who decides each waiting line, in turn (taken modulo): the creator when absent. */
  deciders?: ("creator" | "approver")[];
  /** The asker leaves the session after the decisions, with their lines removed or given. */
  leave?: "remove" | "give" | null;
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
    approver: fc.option(fc.nat(3), { freq: 3 }),
    deciders: fc.array(fc.constantFrom<"creator" | "approver">("creator", "approver"), {
      minLength: 1,
      maxLength: 2,
    }),
    leave: fc.oneof(
      { weight: 2, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.constantFrom<"remove" | "give">("remove", "give") },
    ),
  }),
  { freq: 3 },
);

/** Who asks first and their budget, set by the creator before anything is added. */
export interface Asker {
  person: Person;
  budget: number;
  /** The member named approver besides the creator, if any. */
  approver: Person | null;
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
  const approver =
    spec.approver === null || spec.approver === undefined
      ? null
      : joining[spec.approver % joining.length]!;
  if (approver) {
    ok(
      await client(t, creator.token)("PUT", `/api/sessions/${sessionId}/approvers`, {
        userIds: [approver.id],
      }),
      200,
      "name an approver",
    );
  }
  return { person, budget: spec.budget, approver };
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
  spec: readonly number[] | undefined,
): Promise<string[]> {
  const candidates = members.filter((p, i) => i > 0 && p !== adder);
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
 * The waiting lines decided as the spec says, each by the creator or the approver: approved lines
 * count from then on, declined ones are gone. The approver is answered 404 on a line hidden from
 * them and 403 on approving their own line; the creator then decides it. Answers the lines left
 * (those still waiting are dropped at checkout).
 */
export async function decide(
  t: TestApp,
  creator: Person,
  asker: Asker | null,
  cartId: string,
  lines: CartLine[],
  spec: AskSpec | null | undefined,
): Promise<CartLine[]> {
  const waiting = lines.filter((l) => l.pending);
  if (!spec || !asker || waiting.length === 0) return lines;
  const gone = new Set<CartLine>();
  for (const [k, line] of waiting.entries()) {
    const what = spec.decisions[k % spec.decisions.length]!;
    if (what === "leave") continue;
    const deciders = spec.deciders ?? ["creator"];
    const approver = deciders[k % deciders.length] === "approver" ? asker.approver : null;
    if (approver) {
      const status = line.hiddenFrom.includes(approver.id)
        ? 404
        : what === "approve" && line.adder === approver.id
          ? 403
          : 200;
      if (status === 200) {
        await decideOne(t, approver, cartId, line, what);
        if (what === "approve") line.pending = false;
        else gone.add(line);
        continue;
      }
      const res = await client(t, approver.token)(
        "POST",
        `/api/carts/${cartId}/lines/${line.lineId}/${what}`,
        {},
      );
      ok(res, status, `the approver's ${what} of ${line.name}`);
    }
    await decideOne(t, creator, cartId, line, what);
    if (what === "approve") line.pending = false;
    else gone.add(line);
  }
  return lines.filter((l) => !gone.has(l));
}

/** `who` approves or declines a waiting line: 200, and the cart shows it counted or gone. */
export async function decideOne(
  t: TestApp,
  who: Person,
  cartId: string,
  line: CartLine,
  what: "approve" | "decline",
): Promise<void> {
  const res = await client(t, who.token)(
    "POST",
    `/api/carts/${cartId}/lines/${line.lineId}/${what}`,
    { message: what === "approve" ? "fine this time" : "not this week" },
  );
  ok(res, 200, `${who.name}'s ${what} of a waiting line`);
  const still = (res.json().cart.products as { _id: string; pending: unknown }[]).find(
    (x) => x._id === line.lineId,
  );
  if (what === "decline" ? still : !still || still.pending !== null) {
    throw new Error(`setup: ${what} left the line ${JSON.stringify(still)}`);
  }
}
