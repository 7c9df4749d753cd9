/**
 * A world for the model test, built through the API: three to five people, one or two sessions
 * (each with its creator, members who join, catalog lines, sharers, a split policy, perhaps a
 * member removed before checkout), each checked out with one to three payers. The spec is what
 * fast-check generates and shrinks; indices are taken modulo what exists, so every spec builds.
 */
import type { Order } from "@cartner/contract";
import fc from "fast-check";
import { client, signUp, type TestApp } from "../helpers.ts";
import type { FeeMode, Member, SplitMode } from "./exact-split.ts";
import type { FrozenLine, ModelOrder, Person, World } from "./model.ts";

export interface LineSpec {
  product: number;
  quantity: number;
  adder: number;
  sharers: number[];
}

export interface OrderSpec {
  creator: number;
  /** Which of the others join (at least one does). */
  joins: boolean[];
  mode: SplitMode;
  fees: FeeMode;
  weights: number[];
  lines: LineSpec[];
  remove: { who: number; lines: "remove" | "give" } | null;
  /** Empty: no payers named (the payee paid it all). */
  payers: { who: number; weight: number }[];
}

export interface WorldSpec {
  people: number;
  orders: OrderSpec[];
}

const NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"];

const lineSpec = fc.record({
  product: fc.nat(60),
  quantity: fc.integer({ min: 1, max: 3 }),
  adder: fc.nat(4),
  sharers: fc.oneof(
    { weight: 3, arbitrary: fc.constant<number[]>([]) },
    { weight: 1, arbitrary: fc.uniqueArray(fc.nat(4), { minLength: 1, maxLength: 3 }) },
  ),
});

const orderSpec = fc.record({
  creator: fc.nat(4),
  joins: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
  mode: fc.constantFrom<SplitMode>("by_adder", "equal", "weights"),
  fees: fc.constantFrom<FeeMode>("proportional", "equal", "creator"),
  weights: fc.array(fc.constantFrom(100, 100, 50, 0), { minLength: 5, maxLength: 5 }),
  lines: fc.array(lineSpec, { minLength: 1, maxLength: 6 }),
  remove: fc.option(
    fc.record({ who: fc.nat(4), lines: fc.constantFrom<"remove" | "give">("remove", "give") }),
    { freq: 4 },
  ),
  payers: fc.oneof(
    { weight: 1, arbitrary: fc.constant<{ who: number; weight: number }[]>([]) },
    {
      weight: 3,
      arbitrary: fc.array(fc.record({ who: fc.nat(5), weight: fc.integer({ min: 1, max: 5 }) }), {
        minLength: 1,
        maxLength: 3,
      }),
    },
  ),
});

export const worldSpec: fc.Arbitrary<WorldSpec> = fc.record({
  people: fc.integer({ min: 3, max: 5 }),
  orders: fc.array(orderSpec, { minLength: 1, maxLength: 2 }),
});

type Product = { _id: string; name: string; price: number; stock: number };
/** A line as added to the cart, in cents. */
type CartLine = FrozenLine & { productId: string; unitPrice: number; quantity: number };

/** The catalog products the worlds use: affordable and with stock to spare. */
export async function usableProducts(t: TestApp, token: string): Promise<Product[]> {
  const res = await client(t, token)("GET", "/api/products?limit=100");
  const products = (res.json().products as Product[]).filter(
    (p) => p.price <= 100 && p.stock >= 20,
  );
  if (products.length < 12) throw new Error("the catalog has too few usable products");
  return products;
}

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

function ok(res: { statusCode: number; body: string }, expected: number, what: string) {
  if (res.statusCode !== expected) {
    throw new Error(`setup: ${what} answered ${res.statusCode}: ${res.body}`);
  }
}

export interface Built {
  world: World;
  /** Figures to check once, before the orders exist: each session's summary at checkout. */
  summaries: { orderIndex: number; summary: Summary }[];
}

export interface Summary {
  split: { userId: string; subtotal: number; fees: number; tax: number; total: number }[];
  subtotal: number;
  fees: number;
  tax: number;
  total: number;
}

/** Builds the world through the API and returns its model, each order as checked out. */
export async function buildWorld(t: TestApp, spec: WorldSpec): Promise<Built> {
  const people: Person[] = [];
  for (const name of NAMES.slice(0, spec.people)) {
    const p = await signUp(t, name);
    people.push({ id: p.userId, name, email: p.email, token: p.token, alive: true });
  }
  const world: World = { people, orders: [] };
  const products = await usableProducts(t, people[0]!.token);
  const summaries: Built["summaries"] = [];
  for (const [index, o] of spec.orders.entries()) {
    const built = await buildOrder(t, people, products, o, index);
    world.orders.push(built.order);
    summaries.push({ orderIndex: index, summary: built.summary });
  }
  return { world, summaries };
}

async function buildOrder(
  t: TestApp,
  people: Person[],
  products: Product[],
  spec: OrderSpec,
  seq: number,
): Promise<{ order: ModelOrder; summary: Summary }> {
  const creator = people[spec.creator % people.length]!;
  const as = (p: Person) => client(t, p.token);
  const others = people.filter((p) => p !== creator);
  let joining = others.filter((_, i) => spec.joins[i]);
  if (joining.length === 0) joining = [others[0]!];
  const created = await as(creator)("POST", "/api/sessions", {
    sessionName: `Shop ${seq + 1}`,
    sessionType: "Friends",
    participants: "3+",
    passcode: "tulip",
  });
  ok(created, 201, "POST /api/sessions");
  const session = created.json().session as { _id: string; sessionCode: string; cartId: string };
  for (const p of joining) {
    const join = await as(p)("POST", "/api/sessions/join/code", {
      sessionCode: session.sessionCode,
      passcode: "tulip",
    });
    ok(join, 202, "join");
    const approve = await as(creator)("POST", `/api/sessions/approve/${session.sessionCode}`, {
      userId: p.id,
    });
    ok(approve, 200, "approve");
  }
  let members = [creator, ...joining];
  const weights = Object.fromEntries(members.map((p) => [p.id, spec.weights[people.indexOf(p)]!]));
  const policy = { mode: spec.mode, weights, fees: spec.fees };
  ok(
    await as(creator)("PUT", `/api/sessions/${session._id}/split-policy`, policy),
    200,
    "split-policy",
  );

  // Each line its own product, so no two lines merge.
  const lines: CartLine[] = [];
  const used = new Set<string>();
  for (const l of spec.lines) {
    let product = products[l.product % products.length]!;
    for (let k = 1; used.has(product._id); k++)
      product = products[(l.product + k) % products.length]!;
    used.add(product._id);
    const adder = members[l.adder % members.length]!;
    const added = await as(adder)("POST", `/api/carts/${session.cartId}/product`, {
      productId: product._id,
      quantity: l.quantity,
    });
    ok(added, 200, "add a line");
    const line = (
      added.json().cart.products as {
        _id: string;
        productId: { _id: string };
        addedBy: { _id: string };
      }[]
    ).find((x) => x.productId._id === product._id && x.addedBy._id === adder.id)!;
    const sharers = [...new Set(l.sharers.map((s) => members[s % members.length]!.id))];
    if (sharers.length > 0) {
      const shared = await as(adder)(
        "PUT",
        `/api/carts/${session.cartId}/lines/${line._id}/shared-with`,
        { userIds: sharers },
      );
      ok(shared, 200, "shared-with");
    }
    lines.push({
      productId: product._id,
      name: product.name,
      unitPrice: Math.round(product.price * 100),
      quantity: l.quantity,
      adder: adder.id,
      sharers,
    });
  }

  let kept = lines;
  if (spec.remove && joining.length > 0) {
    const gone = joining[spec.remove.who % joining.length]!;
    const how = spec.remove.lines === "remove" ? "lines=remove" : `lines=give&to=${creator.id}`;
    ok(
      await as(creator)("DELETE", `/api/sessions/${session._id}/members/${gone.id}?${how}`),
      200,
      "remove a member",
    );
    members = members.filter((p) => p !== gone);
    kept = lines
      .filter((l) => spec.remove!.lines === "give" || l.adder !== gone.id)
      .map((l) => ({
        ...l,
        adder: l.adder === gone.id ? creator.id : l.adder,
        sharers: l.sharers.filter((s) => s !== gone.id),
      }));
  }

  if (kept.length === 0) {
    // Every line left with the removed member: one more, so there is something to check out.
    const product = products.find((p) => !used.has(p._id))!;
    ok(
      await as(creator)("POST", `/api/carts/${session.cartId}/product`, {
        productId: product._id,
        quantity: 1,
      }),
      200,
      "add a line",
    );
    kept = [
      {
        productId: product._id,
        name: product.name,
        unitPrice: Math.round(product.price * 100),
        quantity: 1,
        adder: creator.id,
        sharers: [],
      },
    ];
  }
  return checkout(t, creator, members, session, kept, policy, spec, seq);
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

/** Checks the session out with the spec's payers (amounts adding up to the summary's total). */
async function checkout(
  t: TestApp,
  creator: Person,
  members: Person[],
  session: { _id: string; cartId: string },
  lines: CartLine[],
  policy: ModelOrder["policy"],
  spec: OrderSpec,
  seq: number,
): Promise<{ order: ModelOrder; summary: Summary }> {
  const as = client(t, creator.token);
  const summaryRes = await as("GET", `/api/sessions/${session._id}/summary`);
  ok(summaryRes, 200, "summary");
  const summary = toCentsSummary(summaryRes.json());
  const eligible = [
    creator.id,
    ...summary.split.filter((s) => s.total > 0 && s.userId !== creator.id).map((s) => s.userId),
  ];
  const chosen = new Map<string, number>();
  for (const p of spec.payers) {
    const id = eligible[p.who % eligible.length]!;
    if (!chosen.has(id)) chosen.set(id, p.weight);
  }
  const amounts = chosen.size > 0 ? splitAmount(summary.total, [...chosen.values()]) : [];
  const payers = [...chosen.keys()].map((userId, i) => ({ userId, cents: amounts[i]! }));
  // Orders are placed a minute apart: transfers settle the oldest first.
  t.clock.advance(60_000);
  const placed = await as(
    "POST",
    `/api/sessions/${session._id}/checkout`,
    payers.length > 0
      ? { payers: payers.map((p) => ({ userId: p.userId, amount: p.cents / 100 })) }
      : undefined,
  );
  ok(placed, 201, "checkout");
  const order = placed.json().order as Order;
  // The model's lines in the order's own order (adjustments name lines by index).
  const byProduct = new Map(lines.map((l) => [l.productId, l]));
  const ordered = order.lines.map((l) => byProduct.get(l.productId));
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
    frozen: ordered.map((l) => ({ name: l!.name, adder: l!.adder, sharers: l!.sharers })),
    lines: ordered.map((l) => ({
      name: l!.name,
      unitPrice: l!.unitPrice,
      quantity: l!.quantity,
      refunded: 0,
      missing: false,
    })),
    orderFees: 0,
    adjustmentIds: [],
    payers: payers.length > 0 ? payers : [{ userId: creator.id, cents: summary.total }],
    parts: partsFrom(order),
    moved: new Map(),
    forgiven: new Map(),
    pending: new Map(),
  };
  return { order: model, summary };
}

/** The system's parts of an order answer, "debtor|payer" -> cents. */
export function partsFrom(order: Order): Map<string, number> {
  return new Map(
    order.parts
      .filter((p) => p.debtor !== p.payer)
      .map((p) => [`${p.debtor}|${p.payer}`, Math.round(p.amount * 100)]),
  );
}
