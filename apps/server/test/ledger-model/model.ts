/**
 * The reference book: what decision 033 says each money event does, kept per order as debts
 * between two people in integer cents. Each pair's part comes from the system's rounded parts
 * (checked against the exact ones elsewhere); everything that moved after checkout is the
 * model's own: what B owes A on an order is B's part to A less A's part to B plus every posted
 * settling entry from B to A less those from A to B. Pending claims ("I've paid") count for the
 * share's status only.
 */
import { exactSplit, type ExactOrder, type Member, type Policy } from "./exact-split.ts";
import { lineTotal, type LineState } from "./line-changes.ts";

export interface Person {
  id: string;
  name: string;
  email: string;
  token: string;
  alive: boolean;
}

export interface FrozenLine {
  name: string;
  adder: string;
  sharers: string[];
  /** A free line: no product, a name, its estimate as its price until the payee prices it. */
  free: boolean;
  note: string | null;
  /** Members the line is private from (decision 049): never the creator nor the adder. */
  hiddenFrom: string[];
}

export interface ModelOrder {
  id: string;
  sessionId: string;
  /** Placement order: transfers settle the oldest first. */
  seq: number;
  payee: string;
  /** Who carried a share at checkout (creator and participants), by the frozen policy. */
  members: Member[];
  /** The members the order lists a share for (the system's; a share of 0 may be left out). */
  holders: string[];
  policy: Policy;
  frozen: FrozenLine[];
  lines: LineState[];
  orderFees: number;
  adjustmentIds: string[];
  /** The line each adjustment names, by the order's index (null: an order-level amount). */
  adjustmentLines: (number | null)[];
  /** Who paid the shop at checkout, in cents (the payee alone when none were named). */
  payers: { userId: string; cents: number }[];
  /** The system's parts, "debtor|payer" -> cents (debtor != payer). */
  parts: Map<string, number>;
  /** Posted settling entries, "from|to" -> cents: by them `from` owes `to` more. */
  moved: Map<string, number>;
  /** The same for write-offs (kept apart: they are not payments). */
  forgiven: Map<string, number>;
  /** Pending "I've paid" claims, "member|payer" -> cents. */
  pending: Map<string, number>;
}

export interface World {
  people: Person[];
  orders: ModelOrder[];
}

export const key = (a: string, b: string) => `${a}|${b}`;
const get = (m: Map<string, number>, k: string) => m.get(k) ?? 0;
const bump = (m: Map<string, number>, k: string, by: number) => m.set(k, get(m, k) + by);

export const exactOf = (o: ModelOrder): ExactOrder =>
  exactSplit(
    o.members,
    o.policy,
    o.lines.map((l, i) => ({
      total: lineTotal(l),
      adder: o.frozen[i]!.adder,
      sharers: o.frozen[i]!.sharers,
    })),
    o.orderFees,
  );

export const payerIds = (o: ModelOrder) => o.payers.map((p) => p.userId);
export const memberIds = (o: ModelOrder) => o.members.map((m) => m.userId);
export const isPayer = (o: ModelOrder, id: string) => payerIds(o).includes(id);

/** Everyone the order concerns: payee, payers and members with a share. */
export const peopleOf = (o: ModelOrder) => [...new Set([o.payee, ...payerIds(o), ...o.holders])];

/** What `a` owes `b` on this order (negative: `b` owes `a`). */
export function net(o: ModelOrder, a: string, b: string): number {
  const ab = key(a, b);
  const ba = key(b, a);
  return (
    get(o.parts, ab) -
    get(o.parts, ba) +
    get(o.moved, ab) -
    get(o.moved, ba) +
    get(o.forgiven, ab) -
    get(o.forgiven, ba)
  );
}

export const pendingOf = (o: ModelOrder, member: string, payer: string) =>
  get(o.pending, key(member, payer));

/** Every unordered pair of people who may owe each other on the order (a member and a payer). */
export function pairsOf(o: ModelOrder): [string, string][] {
  const out = new Map<string, [string, string]>();
  for (const m of memberIds(o)) {
    for (const p of payerIds(o)) {
      if (m === p) continue;
      const [a, b] = m < p ? [m, p] : [p, m];
      out.set(key(a, b), [a, b]);
    }
  }
  return [...out.values()];
}

/**
 * A share's status by 033: confirmed when it owes no payer, paid when every payer it owes has a
 * pending claim covering what is open, else unpaid.
 */
export function statusOf(o: ModelOrder, m: string): "unpaid" | "paid" | "confirmed" {
  const owed = payerIds(o).filter((p) => p !== m && net(o, m, p) > 0);
  if (owed.length === 0) return "confirmed";
  return owed.every((p) => pendingOf(o, m, p) >= net(o, m, p)) ? "paid" : "unpaid";
}

/** What the payers owe the member back (their credit), and what the member still owes. */
export function openOf(o: ModelOrder, m: string): { open: number; credit: number } {
  let open = 0;
  let credit = 0;
  for (const p of payerIds(o)) {
    if (p === m) continue;
    const n = net(o, m, p);
    if (n > 0) open += n;
    else credit -= n;
  }
  return { open, credit };
}

/** Paid towards a member's share: payments from them to the payers less credits paid back. */
export function paidOf(o: ModelOrder, m: string): number {
  let paid = 0;
  for (const p of payerIds(o)) {
    if (p === m) continue;
    paid += get(o.moved, key(p, m)) - get(o.moved, key(m, p));
  }
  return paid;
}

/** What `b` owes `a` over every order (a's balance with b: positive, b owes a). */
export const balance = (w: World, a: string, b: string, orders = w.orders) =>
  orders.reduce((sum, o) => sum + net(o, b, a), 0);

// --- Money events, each as 033 writes it ---------------------------------------------------

/** "I've paid": a pending claim of what is open to each payer the member still owes. */
export function markPaid(o: ModelOrder, m: string): boolean {
  let changed = false;
  for (const p of payerIds(o)) {
    const open = p === m ? 0 : net(o, m, p);
    if (open > pendingOf(o, m, p)) {
      o.pending.set(key(m, p), open);
      changed = true;
    }
  }
  return changed;
}

/** The payer confirms the member's pending claim: it is posted as claimed. */
export function confirm(o: ModelOrder, payer: string, m: string): void {
  bump(o.moved, key(payer, m), pendingOf(o, m, payer));
  o.pending.delete(key(m, payer));
}

/** Cash or a write-off: the payer settles what is open between the two; claims are voided. */
export function settleOpen(o: ModelOrder, payer: string, m: string, how: "cash" | "written_off") {
  bump(how === "cash" ? o.moved : o.forgiven, key(payer, m), net(o, m, payer));
  o.pending.delete(key(m, payer));
}

const voidPair = (o: ModelOrder, a: string, b: string) => {
  o.pending.delete(key(a, b));
  o.pending.delete(key(b, a));
};

/** What a transfer from `from` to `to` may settle: debts oldest first, credits, the amounts. */
export function transferOptions(w: World, from: string, to: string) {
  const byAge = [...w.orders].sort((a, b) => a.seq - b.seq);
  const debts = byAge.filter((o) => net(o, from, to) > 0);
  const credits = byAge.filter((o) => net(o, from, to) < 0);
  const back = credits.reduce((a, o) => a - net(o, from, to), 0);
  let running = 0;
  const upTo = debts.map((o) => (running += net(o, from, to)) - back);
  return { debts, credits, upTo, matching: upTo.filter((c) => c > 0) };
}

/** The refusal a transfer should get, or null when `amount` settles whole parts. */
export function transferRefusal(w: World, from: string, to: string, amount: number) {
  const { debts, credits, upTo } = transferOptions(w, from, to);
  if (from === to) return 400;
  if (debts.length === 0 && credits.length === 0) return 404;
  if ((upTo.at(-1) ?? -1) <= 0) return 403;
  return upTo.includes(amount) ? null : 400;
}

/** Records a matching transfer: the oldest debts it covers and every credit, each in full. */
export function transfer(w: World, from: string, to: string, amount: number): void {
  const { debts, credits, upTo } = transferOptions(w, from, to);
  const take = upTo.indexOf(amount) + 1;
  for (const o of debts.slice(0, take)) {
    bump(o.moved, key(to, from), net(o, from, to));
    voidPair(o, from, to);
  }
  for (const o of credits) {
    bump(o.moved, key(from, to), -net(o, from, to));
    voidPair(o, from, to);
  }
}

/**
 * A write-off forgives, it never pays: once a change lowers a part that was written off, what
 * was forgiven beyond the part (less what was paid) is taken back, so nobody gets a credit they
 * never paid (a member's credit is what they paid beyond their part). Called after every change.
 */
export function capForgiven(o: ModelOrder): void {
  for (const [a, b] of pairsOf(o)) {
    for (const [m, p] of [
      [a, b],
      [b, a],
    ] as const) {
      const forgiven = get(o.forgiven, key(p, m));
      if (forgiven === 0) continue;
      const paid = get(o.moved, key(p, m)) - get(o.moved, key(m, p));
      const part = get(o.parts, key(m, p)) - get(o.parts, key(p, m));
      const excess = Math.min(0, part - paid) - net(o, m, p);
      if (excess > 0) o.forgiven.set(key(p, m), forgiven - Math.min(forgiven, excess));
    }
  }
}

/** An account deleted: what anyone owes them is written off; what they owe stays. */
export function deleteAccount(w: World, d: string): void {
  for (const o of w.orders) {
    for (const x of peopleOf(o)) {
      if (x === d) continue;
      const owed = net(o, x, d);
      if (owed > 0) {
        bump(o.forgiven, key(d, x), owed);
        o.pending.delete(key(x, d));
      }
    }
  }
  w.people.find((p) => p.id === d)!.alive = false;
}

export const alive = (w: World) => w.people.filter((p) => p.alive);
export const nameOf = (w: World, id: string) => w.people.find((p) => p.id === id)?.name ?? id;
