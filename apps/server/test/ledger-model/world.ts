/**
 * A world for the model test, built through the API: three to five people, one or two sessions
 * (each with its creator, members who join, catalog lines and free lines, sharers, a split policy,
 * perhaps a member removed before checkout, private lines, an "ask first" budget with perhaps an
 * approver and the asker leaving, as world-private.ts and world-leaving.ts make them), each checked out with one to three payers. About one
 * line in four is a free line (a name, perhaps an estimate and a note, no product), checked out at
 * its estimate (0 without one) until the payee prices it. The spec is what fast-check generates
 * and shrinks; indices are taken modulo what exists, so every spec builds.
 */
import fc from "fast-check";
import { client, signUp, type TestApp } from "../helpers.ts";
import { checkout, ok, type ReaderSummary, type Summary } from "./checkout.ts";
import type { FeeMode, SplitMode } from "./exact-split.ts";
import type { FrozenLine, Person, World } from "./model.ts";
import {
  askSpec,
  decide,
  hide,
  hideSpec,
  mustWait,
  setAsker,
  type AskSpec,
} from "./world-private.ts";
import { askerLeaves } from "./world-leaving.ts";

export interface LineSpec {
  product: number;
  quantity: number;
  adder: number;
  sharers: number[];
  /** A free line instead of the product: its estimate in cents (none: 0) and whether it has a note. */
  free?: { estimate: number | null; note: boolean } | null;
  /** Members (indices) the adder hides the line from, when they may be (world-private.ts). */
  hide?: number[];
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
  /** A joining member whose budget asks first, and what the creator decides. */
  ask?: AskSpec | null;
}

export interface WorldSpec {
  people: number;
  orders: OrderSpec[];
}

const NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"];
const FREE_NAMES = ["Birthday candles", "Market bread", "Cut flowers", "Ice", "Good coffee"];

const lineSpec = fc.record({
  product: fc.nat(60),
  quantity: fc.integer({ min: 1, max: 3 }),
  adder: fc.nat(4),
  sharers: fc.oneof(
    { weight: 3, arbitrary: fc.constant<number[]>([]) },
    { weight: 1, arbitrary: fc.uniqueArray(fc.nat(4), { minLength: 1, maxLength: 3 }) },
  ),
  free: fc.oneof(
    { weight: 3, arbitrary: fc.constant(null) },
    {
      weight: 1,
      arbitrary: fc.record({
        estimate: fc.option(fc.constantFrom(0, 149, 399, 1250, 2999), { freq: 3 }),
        note: fc.boolean(),
      }),
    },
  ),
  hide: hideSpec,
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
  ask: askSpec,
});

export const worldSpec: fc.Arbitrary<WorldSpec> = fc.record({
  people: fc.integer({ min: 3, max: 5 }),
  orders: fc.array(orderSpec, { minLength: 1, maxLength: 2 }),
});

type Product = { _id: string; name: string; price: number; stock: number };
/** A line as added to the cart, in cents (a free line has no product). */
export type CartLine = FrozenLine & {
  productId: string | null;
  unitPrice: number;
  quantity: number;
  /** The cart line's id, and whether it waits for approval (before checkout). */
  lineId?: string;
  pending?: boolean;
};
type CartLineAnswer = {
  _id: string;
  pending: unknown;
  productId: { _id: string | null; name: string };
  addedBy: { _id: string };
};
type Call = ReturnType<typeof client>;
/** A line added: the answer, how to find the line in it, and the line as the model keeps it. */
type Added = {
  res: { json: () => { cart: { products: unknown[] } } };
  found: (lines: CartLineAnswer[], byAdder: (l: CartLineAnswer) => boolean) => CartLineAnswer;
  line: Omit<CartLine, "adder" | "sharers" | "hiddenFrom">;
};

async function addProduct(
  as: Call,
  cartId: string,
  l: LineSpec,
  products: Product[],
  used: Set<string>,
): Promise<Added> {
  let product = products[l.product % products.length]!;
  for (let k = 1; used.has(product._id); k++)
    product = products[(l.product + k) % products.length]!;
  used.add(product._id);
  const res = await as("POST", `/api/carts/${cartId}/product`, {
    productId: product._id,
    quantity: l.quantity,
  });
  ok(res, 200, "add a line");
  return {
    res,
    found: (xs, byAdder) => xs.find((x) => x.productId._id === product._id && byAdder(x))!,
    line: {
      productId: product._id,
      name: product.name,
      unitPrice: Math.round(product.price * 100),
      quantity: l.quantity,
      free: false,
      note: null,
    },
  };
}

/** A free line: its name, its estimate when it has one, its note when it has one. */
async function addFree(as: Call, cartId: string, l: LineSpec, name: string): Promise<Added> {
  const { estimate, note } = l.free!;
  const res = await as("POST", `/api/carts/${cartId}/free-lines`, {
    name,
    quantity: l.quantity,
    ...(estimate === null ? {} : { estimatedPrice: estimate / 100 }),
    ...(note ? { note: `for ${name}` } : {}),
  });
  ok(res, 200, "add a free line");
  return {
    res,
    found: (xs, byAdder) =>
      xs.find((x) => x.productId._id === null && x.productId.name === name && byAdder(x))!,
    line: {
      productId: null,
      name,
      unitPrice: estimate ?? 0,
      quantity: l.quantity,
      free: true,
      note: note ? `for ${name}` : null,
    },
  };
}

/** The catalog products the worlds use: affordable and with stock to spare. */
export async function usableProducts(t: TestApp, token: string): Promise<Product[]> {
  const res = await client(t, token)("GET", "/api/products?limit=100");
  const products = (res.json().products as Product[]).filter(
    (p) => p.price <= 100 && p.stock >= 20,
  );
  if (products.length < 12) throw new Error("the catalog has too few usable products");
  return products;
}

export interface Built {
  world: World;
  /** Figures to check once, before the orders exist: each session's summary at checkout. */
  summaries: { orderIndex: number; summary: Summary; readers: ReaderSummary[] }[];
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
    summaries.push({ orderIndex: index, summary: built.summary, readers: built.readers });
  }
  return { world, summaries };
}

async function buildOrder(
  t: TestApp,
  people: Person[],
  products: Product[],
  spec: OrderSpec,
  seq: number,
): Promise<Awaited<ReturnType<typeof checkout>>> {
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

  const asker = await setAsker(t, creator, joining, session._id, spec.ask);
  const splitMembers = members.map((p) => ({ userId: p.id, creator: p === creator }));
  // Each line its own product (so no two lines merge), or a free line of its own name.
  const lines: CartLine[] = [];
  const used = new Set<string>();
  for (const [index, l] of spec.lines.entries()) {
    const adder = members[l.adder % members.length]!;
    // A second apart, so the order lists the lines as added.
    t.clock.advance(1000);
    const added = l.free
      ? await addFree(as(adder), session.cartId, l, `${FREE_NAMES[l.product % 5]} ${index + 1}`)
      : await addProduct(as(adder), session.cartId, l, products, used);
    const line = added.found(
      added.res.json().cart.products as CartLineAnswer[],
      (x) => x.addedBy._id === adder.id,
    );
    const sharers = [...new Set(l.sharers.map((s) => members[s % members.length]!.id))];
    if (sharers.length > 0) {
      const shared = await as(adder)(
        "PUT",
        `/api/carts/${session.cartId}/lines/${line._id}/shared-with`,
        { userIds: sharers },
      );
      ok(shared, 200, "shared-with");
    }
    const waits = line.pending !== null;
    if (asker?.person === adder) {
      const must = mustWait(asker, splitMembers, policy, lines, added.line);
      if (must !== null && must !== waits) {
        throw new Error(
          `${adder.name}'s ${added.line.name} ${waits ? "waits" : "does not wait"} for approval; the model says otherwise (budget ${asker.budget})`,
        );
      }
    } else if (waits) throw new Error(`${adder.name}'s ${added.line.name} waits, with no budget`);
    const hiddenFrom = await hide(t, adder, session.cartId, line._id, members, l.hide);
    lines.push({
      ...added.line,
      adder: adder.id,
      sharers,
      hiddenFrom,
      lineId: line._id,
      pending: waits,
    });
  }
  const decided = await askerLeaves(
    t,
    creator,
    asker,
    session,
    await decide(t, creator, asker, session.cartId, lines, spec.ask),
    spec.ask,
  );
  if (spec.ask?.leave) members = members.filter((p) => p !== asker?.person);

  let kept = decided;
  // The asker is not removed as well (they may have left above).
  const leavers = joining.filter((p) => p !== asker?.person);
  if (spec.remove && leavers.length > 0) {
    const gone = leavers[spec.remove.who % leavers.length]!;
    const how = spec.remove.lines === "remove" ? "lines=remove" : `lines=give&to=${creator.id}`;
    ok(
      await as(creator)("DELETE", `/api/sessions/${session._id}/members/${gone.id}?${how}`),
      200,
      "remove a member",
    );
    members = members.filter((p) => p !== gone);
    kept = decided
      .filter((l) => spec.remove!.lines === "give" || l.adder !== gone.id)
      .map((l) => ({
        ...l,
        adder: l.adder === gone.id ? creator.id : l.adder,
        sharers: l.sharers.filter((s) => s !== gone.id),
        hiddenFrom: l.hiddenFrom.filter((s) => s !== gone.id),
      }));
  }
  // Lines still waiting are dropped at checkout.
  const dropped = kept.filter((l) => l.pending);
  kept = kept.filter((l) => !l.pending);

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
        free: false,
        note: null,
        hiddenFrom: [],
      },
    ];
  }
  return checkout(t, creator, members, session, { kept, dropped }, policy, spec, seq);
}
