/** Commands that settle money: "I've paid", a payer settling a member, transfers. */
import {
  alive,
  confirm,
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
  type Person,
  type World,
} from "./model.ts";
import { as, expectAnswer, person, pick, Step, type Real } from "./step.ts";
import type { Expect } from "./verify.ts";

/** A member says they paid what they owe on an order ("I've paid"). */
export class MarkPaid extends Step {
  readonly order: number;
  readonly who: number;
  constructor(order: number, who: number) {
    super();
    this.order = order;
    this.who = who;
  }
  protected args() {
    return [this.order, this.who];
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
  protected args() {
    return [this.order, this.choice, this.valid];
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
      // A payer with nothing open to settle may be told so or answered as a no-op; someone who
      // is not a payer, or a confirmation of something open but not claimed, is refused.
      // Nothing moves.
      const noop = isPayer(o, by) && (how !== "transfer" || net(o, m, by) <= 0);
      expectAnswer(res, noop ? [200, 400, 404, 409] : "4xx", this.label);
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
  protected args() {
    return [this.pair, this.amount, this.mode];
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
