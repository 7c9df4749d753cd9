/**
 * A world's session checked out (world.ts builds it): the payers named at checkout, amounts
 * adding up to the summary's total, and the order as the model starts it, its lines matched to
 * the cart's (a catalog line by its product, a free line by its name) and each free line at its
 * estimate until the payee prices it.
 */
import type { Order } from "@cartner/contract";
import { client, type TestApp } from "../helpers.ts";
import type { Member } from "./exact-split.ts";
import type { ModelOrder, Person } from "./model.ts";
import type { CartLine, OrderSpec } from "./world.ts";

/** Splits `total` cents by `weights`, largest remainder, each at least 1 cent. */
export function splitAmount(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (total * w) / sum);
  const out = exact.map((x) => Math.max(1, Math.floor(x)));
  let left = total - out.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0]);
  for (let k = 0; left !== 0; k = (k + 1) % out.length) {
    const i = order[k]![1];
    if (left < 0 && out[i]! <= 1) continue;
    out[i]! += Math.sign(left);
    left -= Math.sign(left);
  }
  return out;
}

export function ok(res: { statusCode: number; body: string }, expected: number, what: string) {
  if (res.statusCode !== expected) {
    throw new Error(`setup: ${what} answered ${res.statusCode}: ${res.body}`);
  }
}

export interface Summary {
  split: { userId: string; subtotal: number; fees: number; tax: number; total: number }[];
  subtotal: number;
  fees: number;
  tax: number;
  total: number;
}

function toCentsSummary(json: {
  split: { userId: string; subtotal: number; fees: number; tax: number; total: number }[];
  subtotal: number;
  fees: number;
  tax: number;
  total: number;
}): Summary {
  const c = (x: number) => Math.round(x * 100);
  return {
    split: json.split.map((s) => ({
      userId: s.userId,
      subtotal: c(s.subtotal),
      fees: c(s.fees),
      tax: c(s.tax),
      total: c(s.total),
    })),
    subtotal: c(json.subtotal),
    fees: c(json.fees),
    tax: c(json.tax),
    total: c(json.total),
  };
}

/**
 * Checks the session out with the spec's payers (amounts adding up to the summary's total, each at
 * least a cent: no more payers than cents, none on a total of 0, which free lines without an
 * estimate can leave).
 */
export async function checkout(
  t: TestApp,
  creator: Person,
  members: Person[],
  session: { _id: string; cartId: string },
  { kept: lines, dropped }: { kept: CartLine[]; dropped: CartLine[] },
  policy: ModelOrder["policy"],
  spec: OrderSpec,
  seq: number,
): Promise<{ order: ModelOrder; summary: Summary; readers: ReaderSummary[] }> {
  const as = client(t, creator.token);
  const summaryRes = await as("GET", `/api/sessions/${session._id}/summary`);
  ok(summaryRes, 200, "summary");
  const summary = toCentsSummary(summaryRes.json());
  // Every member's own summary (lines hidden from them left out), checked with the world.
  const readers: ReaderSummary[] = [{ userId: creator.id, json: summaryRes.json() }];
  for (const m of members.filter((p) => p !== creator)) {
    const res = await client(t, m.token)("GET", `/api/sessions/${session._id}/summary`);
    ok(res, 200, `${m.name}'s summary`);
    readers.push({ userId: m.id, json: res.json() });
  }
  const eligible = [
    creator.id,
    ...summary.split.filter((s) => s.total > 0 && s.userId !== creator.id).map((s) => s.userId),
  ];
  const chosen = new Map<string, number>();
  for (const p of spec.payers) {
    const id = eligible[p.who % eligible.length]!;
    if (!chosen.has(id) && chosen.size < summary.total) chosen.set(id, p.weight);
  }
  const amounts = chosen.size > 0 ? splitAmount(summary.total, [...chosen.values()]) : [];
  const payers = [...chosen.keys()].map((userId, i) => ({ userId, cents: amounts[i]! }));
  // Orders are placed a minute apart: transfers settle the oldest first.
  t.clock.advance(60_000);
  const body =
    payers.length > 0
      ? { payers: payers.map((p) => ({ userId: p.userId, amount: p.cents / 100 })) }
      : undefined;
  const url = `/api/sessions/${session._id}/checkout`;
  if (dropped.length > 0) await waitRefused(t, creator, url, body, dropped);
  const placed = await as("POST", url, dropped.length > 0 ? { ...body, pending: "drop" } : body);
  ok(placed, 201, "checkout");
  const order = placed.json().order as Order;
  // The model's lines in the order's own order (adjustments name lines by index).
  const keyOf = (l: { productId: string | null; name: string }) => l.productId ?? `free:${l.name}`;
  const byKey = new Map(lines.map((l) => [keyOf(l), l]));
  const ordered = order.lines.map((l) => byKey.get(keyOf(l)));
  if (ordered.some((l) => !l) || ordered.length !== lines.length) {
    throw new Error(`setup: the order's lines are not the cart's: ${JSON.stringify(order.lines)}`);
  }
  const memberList: Member[] = members.map((p) => ({ userId: p.id, creator: p === creator }));
  const model: ModelOrder = {
    id: order._id,
    sessionId: session._id,
    seq,
    payee: creator.id,
    members: memberList,
    holders: order.split.map((s) => s.userId),
    policy,
    frozen: ordered.map((l) => ({
      name: l!.name,
      adder: l!.adder,
      sharers: l!.sharers,
      free: l!.free,
      note: l!.note,
      hiddenFrom: l!.hiddenFrom,
    })),
    lines: ordered.map((l) => ({
      name: l!.name,
      unitPrice: l!.unitPrice,
      quantity: l!.quantity,
      refunded: 0,
      missing: false,
      estimated: l!.free,
    })),
    orderFees: 0,
    adjustmentIds: [],
    adjustmentLines: [],
    payers: payers.length > 0 ? payers : [{ userId: creator.id, cents: summary.total }],
    parts: partsFrom(order),
    moved: new Map(),
    forgiven: new Map(),
    pending: new Map(),
  };
  return { order: model, summary, readers };
}

/** A member's summary answer as read (checked by read-private.ts). */
export interface ReaderSummary {
  userId: string;
  json: {
    cartItems: { product: { name: string; price: number }; quantity: number }[];
    privateCount: number;
    split: { total: number }[];
    subtotal: number;
    total: number;
  };
}

/** Checkout that waits for approvals is refused, naming the waiting lines. */
async function waitRefused(
  t: TestApp,
  creator: Person,
  url: string,
  body: object | undefined,
  waiting: CartLine[],
) {
  const res = await client(t, creator.token)("POST", url, { ...body, pending: "wait" });
  const json = res.json() as { code?: string; lines?: { lineId: string; name: string }[] };
  const named = (json.lines ?? []).map((l) => l.lineId).sort();
  const want = waiting.map((l) => l.lineId!).sort();
  if (res.statusCode !== 409 || json.code !== "PENDING_APPROVALS" || named.join() !== want.join()) {
    throw new Error(
      `checkout with ${waiting.length} lines waiting answered ${res.statusCode}: ${res.body}`,
    );
  }
}

/** The system's parts of an order answer, "debtor|payer" -> cents. */
export function partsFrom(order: Order): Map<string, number> {
  return new Map(
    order.parts
      .filter((p) => p.debtor !== p.payer)
      .map((p) => [`${p.debtor}|${p.payer}`, Math.round(p.amount * 100)]),
  );
}
