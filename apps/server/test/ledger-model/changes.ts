/** Commands that change an order or the people: changes after checkout, disputes, deletions. */
import type { Order } from "@cartner/contract";
import { PASSWORD } from "../helpers.ts";
import { Q } from "./fraction.ts";
import { applyChange, changeBody, type Change } from "./line-changes.ts";
import {
  alive,
  capForgiven,
  deleteAccount,
  exactOf,
  nameOf,
  net,
  type ModelOrder,
  type World,
} from "./model.ts";
import { as, expectAnswer, person, pick, Step, type Real } from "./step.ts";
import type { Expect } from "./verify.ts";
import { partsFrom } from "./checkout.ts";

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
  protected args() {
    return [this.order, this.kind, this.line, this.value, this.valid];
  }

  /** The order it changes. */
  protected orderOf(w: Readonly<World>): ModelOrder | undefined {
    return pick(w.orders, this.order);
  }
  /** The line it names (an order-level change names none). */
  protected lineOf(o: ModelOrder): number {
    return this.line % o.lines.length;
  }
  private change(o: ModelOrder): Change {
    const lineIndex = this.lineOf(o);
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
    const o = this.orderOf(w);
    return Boolean(o) && person(w as World, o!.payee).alive;
  }
  async act(w: World, r: Real): Promise<Expect[]> {
    const o = this.orderOf(w)!;
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
    o.adjustmentLines.push(change.kind === "order_fee" ? null : change.lineIndex);
    o.parts = partsFrom(order);
    o.holders = [...new Set([...o.holders, ...order.split.map((s) => s.userId)])];
    capForgiven(o);
    const moved = [...new Set([...before.keys(), ...o.parts.keys()])].some(
      (k) => (before.get(k) ?? 0) !== (o.parts.get(k) ?? 0),
    );
    return moved ? [{ orderId: o.id, kinds: [["adjustment"]] }] : [];
  }
}

/**
 * The payee prices a free line still at its estimate: a price, or another item at a price (a
 * substitute), as the shop charged it; the order re-splits like after any change.
 */
export class PriceFree extends Adjust {
  readonly substitute: boolean;
  constructor(order: number, line: number, value: number, substitute: boolean) {
    super(order, KINDS.indexOf(substitute ? "substituted" : "price"), line, value, true);
    this.substitute = substitute;
  }
  protected override args() {
    return [this.order, this.line, this.value, this.substitute];
  }
  protected override orderOf(w: Readonly<World>) {
    const waiting = w.orders.filter(
      (o) => person(w as World, o.payee).alive && o.lines.some((l) => l.estimated),
    );
    return pick(waiting, this.order);
  }
  protected override lineOf(o: ModelOrder) {
    return pick(
      o.lines.flatMap((l, i) => (l.estimated ? [i] : [])),
      this.line,
    )!;
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
  protected args() {
    return [this.order, this.who, this.adjustment];
  }

  private target(w: Readonly<World>) {
    const o = pick(w.orders, this.order)!;
    const m = pick(
      alive(w as World).filter((p) => p.id !== o.payee && o.holders.includes(p.id)),
      this.who,
    );
    const at = o.adjustmentIds.length > 0 ? this.adjustment % o.adjustmentIds.length : -1;
    return { o, m, adj: o.adjustmentIds[at], line: o.adjustmentLines[at] ?? null };
  }
  check(w: Readonly<World>) {
    const { m, adj } = this.target(w);
    return Boolean(m && adj);
  }
  async act(w: World, r: Real): Promise<Expect[]> {
    const { o, m, adj, line } = this.target(w);
    // A change to a line hidden from the member is, to them, one that does not exist (049).
    const hidden = line !== null && o.frozen[line]!.hiddenFrom.includes(m!.id);
    this.label = `${m!.name} disputes a change${hidden ? " to a line private from them" : ""} on order ${o.seq + 1}`;
    const res = await as(r, m!)("POST", `/api/orders/${o.id}/adjustments/${adj}/dispute`, {
      comment: "That is not what came",
    });
    expectAnswer(res, hidden ? 404 : 200, this.label);
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
  protected args() {
    return [this.who];
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
