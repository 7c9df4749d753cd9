/**
 * The commands the model test runs after checkout, each only when its precondition holds in the
 * model: it calls the API as the rules say it may be called, expects the answer the model
 * predicts (a refusal changes nothing), applies the event to the model and compares every reader.
 * Parameters are plain numbers taken modulo what exists, so fast-check can shrink them.
 */
import type { Order } from "@cartner/contract";
import fc from "fast-check";
import { client, PASSWORD, type TestApp } from "../helpers.ts";
import { applyChange, changeBody, type Change } from "./line-changes.ts";
import {
  alive,
  capForgiven,
  confirm,
  deleteAccount,
  exactOf,
  isPayer,
  markPaid,
  memberIds,
  nameOf,
  net,
  payerIds,
  pendingOf,
  settleOpen,
  transfer,
  transferOptions,
  transferRefusal,
  type ModelOrder,
  type Person,
  type World,
} from "./model.ts";
import { survey, verify, type Expect, type Seen } from "./verify.ts";
import { partsFrom } from "./world.ts";
import { Q } from "./fraction.ts";

export interface Real {
  t: TestApp;
  seen: Seen;
}

type Cmd = fc.AsyncCommand<World, Real>;
const pick = <T>(xs: readonly T[], n: number): T | undefined =>
  xs.length > 0 ? xs[n % xs.length] : undefined;
const person = (w: World, id: string) => w.people.find((p) => p.id === id)!;
const as = (r: Real, p: Person) => client(r.t, p.token);

type Res = { statusCode: number; body: string };
/** Throws unless the answer is the one expected ("4xx": any refusal of the request). */
function expectAnswer(res: Res, expected: number | "4xx" | number[], step: string) {
  const ok =
    expected === "4xx"
      ? res.statusCode >= 400 && res.statusCode < 500
      : Array.isArray(expected)
        ? expected.includes(res.statusCode)
        : res.statusCode === expected;
  if (!ok)
    throw new Unexpected(`${step}: answered ${res.statusCode} (expected ${expected}): ${res.body}`);
}

/** An answer the model did not predict; thrown before the model applies the step. */
export class Unexpected extends Error {}

abstract class Step implements Cmd {
  protected label = "";
  abstract check(w: Readonly<World>): boolean;
  abstract act(w: World, r: Real): Promise<Expect[]>;
  async run(w: World, r: Real): Promise<void> {
    let expected: Expect[] = [];
    try {
      expected = await this.act(w, r);
    } catch (error) {
      // Surveying: note it, and go on with the model as it was (the step did not apply).
      if (!(error instanceof Unexpected) || !survey) throw error;
      survey.note(error.message);
    }
    await verify(r.t, w, this.label, r.seen, expected);
  }
  toString() {
    return this.label || this.constructor.name;
  }
}

/** A member says they paid what they owe on an order ("I've paid"). */
export class MarkPaid extends Step {
  readonly order: number;
  readonly who: number;
  constructor(order: number, who: number) {
    super();
    this.order = order;
    this.who = who;
  }
  private target(w: Readonly<World>) {
    const o = pick(w.orders, this.order)!;
    const m = pick(
      alive(w as World).filter((p) => o.holders.includes(p.id)),
      this.who,
    );
    return { o, m };
  }
  check(w: Readonly<World>) {
    return Boolean(this.target(w).m);
  }
  async act(w: World, r: Real): Promise<Expect[]> {
    const { o, m } = this.target(w);
    this.label = `${m!.name} marks paid on order ${o.seq + 1}`;
    const claims = payerIds(o).some(
      (p) => p !== m!.id && net(o, m!.id, p) > pendingOf(o, m!.id, p),
    );
    const res = await as(r, m!)("POST", `/api/orders/${o.id}/paid`);
    if (!claims) {
      // Nothing left to claim: "twice changes nothing" (or a refusal), and nothing moves.
      expectAnswer(res, [200, 409], this.label);
      return [];
    }
    expectAnswer(res, 200, this.label);
    markPaid(o, m!.id);
    return [{ orderId: o.id, kinds: [["paid"]] }];
  }
}

const HOWS = ["transfer", "cash", "written_off"] as const;
type How = (typeof HOWS)[number];

/** A payer confirms a claim, records cash or writes off what a member owes them. */
export class Settle extends Step {
  readonly order: number;
  readonly choice: number;
  readonly valid: boolean;
  constructor(order: number, choice: number, valid: boolean) {
    super();
    this.order = order;
    this.choice = choice;
    this.valid = valid;
  }
  private combos(w: Readonly<World>) {
    const o = pick(w.orders, this.order)!;
    const out: { by: string; m: string; how: How; valid: boolean }[] = [];
    const callers = [...new Set([...payerIds(o), o.payee])].filter(
      (id) => person(w as World, id).alive,
    );
    for (const by of callers) {
      for (const m of memberIds(o)) {
        if (m === by) continue;
        for (const how of HOWS) {
          const valid =
            isPayer(o, by) && (how === "transfer" ? pendingOf(o, m, by) > 0 : net(o, m, by) > 0);
          out.push({ by, m, how, valid });
        }
      }
    }
    return {
      o,
      combo: pick(
        out.filter((c) => c.valid === this.valid),
        this.choice,
      ),
    };
  }
  check(w: Readonly<World>) {
    return Boolean(this.combos(w).combo);
  }
  async act(w: World, r: Real): Promise<Expect[]> {
    const { o, combo } = this.combos(w);
    const { by, m, how, valid } = combo!;
    this.label = `${nameOf(w, by)} settles ${nameOf(w, m)} (${how}) on order ${o.seq + 1}${valid ? "" : ", refused"}`;
    const res = await as(r, person(w, by))("POST", `/api/orders/${o.id}/confirm/${m}`, { how });
    if (!valid) {
      expectAnswer(res, "4xx", this.label);
      return [];
    }
    expectAnswer(res, 200, this.label);
    if (how === "transfer") confirm(o, by, m);
    else settleOpen(o, by, m, how);
    return [{ orderId: o.id, kinds: [[how === "transfer" ? "confirmed" : how]] }];
  }
}

/** Records a transfer: a matching amount, a recordable one from the caller's plan, or a wrong one. */
export class Transfer extends Step {
  readonly pair: number;
  readonly amount: number;
  readonly mode: "match" | "plan" | "wrong" | "credit_back";
  constructor(pair: number, amount: number, mode: "match" | "plan" | "wrong" | "credit_back") {
    super();
    this.pair = pair;
    this.amount = amount;
    this.mode = mode;
  }
  private pairs(w: Readonly<World>) {
    const out: { from: Person; to: Person; matching: number[] }[] = [];
    for (const from of alive(w as World)) {
      for (const to of w.people) {
        if (to === from) continue;
        const { matching } = transferOptions(w as World, from.id, to.id);
        const creditBack = w.orders.some((o) => isPayer(o, from.id) && net(o, to.id, from.id) < 0);
        if (
          this.mode === "wrong" ||
          (matching.length > 0 && (this.mode !== "credit_back" || creditBack))
        ) {
          out.push({ from, to, matching });
        }
      }
    }
    return pick(out, this.pair);
  }
  check(w: Readonly<World>) {
    return Boolean(this.pairs(w));
  }
  async act(w: World, r: Real): Promise<Expect[]> {
    const { from, to, matching } = this.pairs(w)!;
    let target = to;
    let cents = pick(matching, this.amount) ?? 0;
    if (this.mode === "wrong") {
      const { upTo } = transferOptions(w, from.id, to.id);
      cents = (upTo[0] ?? 100) + 1 + (this.amount % 50);
      while (upTo.includes(cents)) cents += 1;
    }
    if (this.mode === "plan") {
      const plan = (await as(r, from)("GET", "/api/balances/settle-plan")).json().transfers as {
        from: { _id: string };
        to: { _id: string };
        amount: number;
        recordable: boolean;
      }[];
      const mine = pick(
        plan.filter((p) => p.from._id === from.id && p.recordable),
        this.amount,
      );
      if (mine) {
        target = person(w, mine.to._id);
        cents = Math.round(mine.amount * 100);
      }
    }
    const refusal = transferRefusal(w, from.id, target.id, cents);
    this.label = `${from.name} records paying ${target.name} ${cents} (${this.mode})${refusal ? `, refused ${refusal}` : ""}`;
    const settles = transferOptions(w, from.id, target.id);
    const res = await as(r, from)("POST", "/api/balances/transfers", {
      to: target.id,
      amount: cents / 100,
    });
    if (refusal) {
      expectAnswer(res, "4xx", this.label);
      return [];
    }
    expectAnswer(res, 201, this.label);
    const take = settles.upTo.indexOf(cents) + 1;
    const touched = [...settles.debts.slice(0, take), ...settles.credits];
    transfer(w, from.id, target.id, cents);
    return touched.map((o) => ({ orderId: o.id, kinds: [["transfer", "credit_back"]] }));
  }
}

const PRICES = [49, 99, 149, 250, 499, 725, 1299];
const FEES = [-300, -150, -45, 99, 250, 400];
const KINDS = ["missing", "substituted", "quantity", "price", "refund", "order_fee"] as const;

/** The payee records a change after checkout; the model predicts a refusal (400) or the re-split. */
export class Adjust extends Step {
  readonly order: number;
  readonly kind: number;
  readonly line: number;
  readonly value: number;
  readonly valid: boolean;
  constructor(order: number, kind: number, line: number, value: number, valid: boolean) {
    super();
    this.order = order;
    this.kind = kind;
    this.line = line;
    this.value = value;
    this.valid = valid;
  }
  private change(o: ModelOrder): Change {
    const lineIndex = this.line % o.lines.length;
    const l = o.lines[lineIndex]!;
    const v = this.value;
    const kind = KINDS[this.kind % KINDS.length]!;
    switch (kind) {
      case "missing":
        return { kind, lineIndex };
      case "substituted":
        return {
          kind,
          lineIndex,
          name: `Swap ${v % 7}`,
          unitPrice: PRICES[v % PRICES.length]!,
          ...(v % 3 === 0 ? {} : { quantity: 1 + (v % 3) }),
        };
      case "quantity":
        return { kind, lineIndex, quantity: v % 5 };
      case "price":
        return { kind, lineIndex, unitPrice: PRICES[v % PRICES.length]! };
      case "refund": {
        const left = l.unitPrice * l.quantity - l.refunded;
        if (!this.valid) return { kind, lineIndex, amount: left + 1 + (v % 100) };
        if (l.refunded > 0 && (v % 3 === 0 || left === 0)) {
          return { kind, lineIndex, amount: -Math.max(1, Math.round(l.refunded / 2)) };
        }
        return { kind, lineIndex, amount: Math.max(1, Math.round((left * (1 + (v % 9))) / 10)) };
      }
      case "order_fee":
        return this.valid
          ? { kind, amount: FEES[v % FEES.length]! }
          : { kind, amount: -(exactOf(o).total + 100 + (v % 500)) };
    }
  }
  check(w: Readonly<World>) {
    const o = pick(w.orders, this.order)!;
    return person(w as World, o.payee).alive;
  }
  async act(w: World, r: Real): Promise<Expect[]> {
    const o = pick(w.orders, this.order)!;
    const change = this.change(o);
    const applied = applyChange(o.lines, o.orderFees, change);
    // Refused when a line cannot take it, or a share or the total would be negative; a share
    // less than a cent below zero may round either way.
    let expected: number | number[] = 201;
    if ("refused" in applied) expected = 400;
    else {
      const ex = exactOf({ ...o, lines: applied.lines, orderFees: applied.orderFees });
      const least = [...ex.shares.values()].reduce((a, s) => (s.total.lt(a) ? s.total : a), Q.ZERO);
      if (ex.total < 0 || !least.gt(Q.of(-1))) expected = 400;
      else if (least.sign() < 0) expected = [201, 400];
    }
    this.label = `${nameOf(w, o.payee)} records ${JSON.stringify(changeBody(change))} on order ${o.seq + 1}`;
    const res = await as(r, person(w, o.payee))(
      "POST",
      `/api/orders/${o.id}/adjustments`,
      changeBody(change),
    );
    expectAnswer(res, expected, this.label);
    if (res.statusCode !== 201 || "refused" in applied) return [];
    const order = res.json().order as Order;
    const before = new Map(o.parts);
    o.lines = applied.lines;
    o.orderFees = applied.orderFees;
    o.adjustmentIds.push(order.adjustments.at(-1)!._id);
    o.parts = partsFrom(order);
    o.holders = [...new Set([...o.holders, ...order.split.map((s) => s.userId)])];
    capForgiven(o);
    const moved = [...new Set([...before.keys(), ...o.parts.keys()])].some(
      (k) => (before.get(k) ?? 0) !== (o.parts.get(k) ?? 0),
    );
    return moved ? [{ orderId: o.id, kinds: [["adjustment"]] }] : [];
  }
}

/** A member with a share disputes a change: no money moves. */
export class Dispute extends Step {
  readonly order: number;
  readonly who: number;
  readonly adjustment: number;
  constructor(order: number, who: number, adjustment: number) {
    super();
    this.order = order;
    this.who = who;
    this.adjustment = adjustment;
  }
  private target(w: Readonly<World>) {
    const o = pick(w.orders, this.order)!;
    const m = pick(
      alive(w as World).filter((p) => p.id !== o.payee && o.holders.includes(p.id)),
      this.who,
    );
    return { o, m, adj: pick(o.adjustmentIds, this.adjustment) };
  }
  check(w: Readonly<World>) {
    const { m, adj } = this.target(w);
    return Boolean(m && adj);
  }
  async act(w: World, r: Real): Promise<Expect[]> {
    const { o, m, adj } = this.target(w);
    this.label = `${m!.name} disputes a change on order ${o.seq + 1}`;
    const res = await as(r, m!)("POST", `/api/orders/${o.id}/adjustments/${adj}/dispute`, {
      comment: "That is not what came",
    });
    expectAnswer(res, 200, this.label);
    return [];
  }
}

/** Someone who is no order's payee deletes their account. */
export class DeleteAccount extends Step {
  readonly who: number;
  constructor(who: number) {
    super();
    this.who = who;
  }
  private target(w: Readonly<World>) {
    return pick(
      alive(w as World).filter((p) => !w.orders.some((o) => o.payee === p.id)),
      this.who,
    );
  }
  check(w: Readonly<World>) {
    return Boolean(this.target(w));
  }
  async act(w: World, r: Real): Promise<Expect[]> {
    const d = this.target(w)!;
    this.label = `${d.name} deletes their account`;
    const owedThem = w.orders.filter((o) =>
      w.people.some((x) => x !== d && net(o, x.id, d.id) > 0),
    );
    const res = await as(r, d)("DELETE", "/api/users/me", {
      password: PASSWORD,
      acknowledgeUnsettled: true,
    });
    expectAnswer(res, 204, this.label);
    deleteAccount(w, d.id);
    return owedThem.map((o) => ({ orderId: o.id, kinds: [["written_off"]] }));
  }
}

const n = fc.nat(1000);
/** Every command, weighted by how often a group does it. */
export const commandArbitraries: fc.Arbitrary<Cmd>[] = [
  fc.tuple(n, n).map(([o, w]) => new MarkPaid(o, w)),
  fc.tuple(n, n).map(([o, w]) => new MarkPaid(o, w)),
  fc.tuple(n, n, fc.boolean()).map(([o, c, v]) => new Settle(o, c, v || c % 4 !== 0)),
  fc.tuple(n, n).map(([o, c]) => new Settle(o, c, true)),
  fc
    .tuple(
      n,
      n,
      fc.constantFrom("match", "plan", "wrong", "credit_back") as fc.Arbitrary<
        "match" | "plan" | "wrong" | "credit_back"
      >,
    )
    .map(([p, a, m]) => new Transfer(p, a, m)),
  fc.tuple(n, n).map(([p, a]) => new Transfer(p, a, "match")),
  fc
    .tuple(n, n, n, n, fc.boolean())
    .map(([o, k, l, v, ok]) => new Adjust(o, k, l, v, ok || v % 5 !== 0)),
  fc.tuple(n, n, n, n).map(([o, k, l, v]) => new Adjust(o, k, l, v, true)),
  fc.tuple(n, n, n).map(([o, w, a]) => new Dispute(o, w, a)),
  n.map((w) => new DeleteAccount(w)),
];
