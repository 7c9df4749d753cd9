/**
 * The four cases of the one-ledger rule (PGlite and PostgreSQL), with every figure worked out by
 * hand under its refund rule: what a change after checkout takes off the total goes back to the
 * payers in proportion to what each paid the shop, each member owes each payer their adjusted
 * share in that payer's proportion, and what a member already paid a payer beyond it is their
 * credit with that payer (a payer's own part of their own share is never paid to anyone).
 *
 * The carts are chosen so that every exact figure is a whole number of cents: with fees 1 % and
 * tax 13 % on a subtotal of whole hundreds of dollars, a member's share is 1.1413 times their
 * subtotal exactly, and with subtotals of whole $600 it divides by 6.
 */
import type { Order } from "@cartner/contract";
import { parse } from "csv-parse/sync";
import { products } from "../../src/db/schema.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cents, createTestApp, PASSWORD, sum, type TestApp } from "../helpers.ts";
import { balancesOf, group, partsByName } from "../group-support.ts";
import { pdfText } from "../pdf-text.ts";
import { readEntries } from "../ledger-model/verify.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // These worlds check out the same products again and again, and checkout takes stock: enough
  // for all of them (stock is not what they test).
  await t.database.db.update(products).set({ stock: 1000 });
});
afterAll(async () => t.close());

const SOAP = "Lavender Soap Bars (3-pack)"; // $12.00
const BOARD = "Street Cruiser Skateboard"; // $75.00
/** The 30 cheapest products in stock, cheapest first. */
const CHEAPEST = [
  "Fairtrade Bananas (bunch of 6)",
  "Free-Range Eggs (12)",
  "Honeycrisp Apples (1 kg)",
  "Rustic Sourdough Loaf",
  "Tropical Mango Smoothie",
  "Brown Sugar Bubble Tea",
  "Aged Cheddar (250 g)",
  "Sparkling Lemonade 6-Pack",
  "Butter Croissant Box (4)",
  "Cold Brew Coffee 1L",
  "Wildflower Honey (340 g)",
  "Street Taco Trio",
  SOAP,
  "Wood-Fired Margherita Pizza",
  "Double Smash Burger",
  "Prosecco DOC 75cl",
  "Glazed Doughnut Dozen",
  "Glossy Nail Polish Trio",
  "Amber & Fig Soy Candle",
  "Velvet Matte Lipstick",
  "Ceremonial Matcha Tea",
  "Sweep-Easy Broom Set",
  "Daily Hydrating Lotion",
  "Everyday Organic Cotton Tee",
  "Salmon Sushi Platter",
  "Cosy Knit Scarf",
  "Match Day Football",
  "Morning Ritual Teapot",
  "Pro Grip Basketball",
  "Monstera Potted Plant",
];

/**
 * Ann pays the shop 5/6, Ben 1/6; only Ben and Cat have lines (by adder, fees in proportion):
 *   Ben: 25 soap × 12.00 = 300.00 and 12 boards × 75.00 = 900.00, subtotal 1200.00
 *   Cat:  8 boards × 75.00 = 600.00 and 50 soap × 12.00 = 600.00, subtotal 1200.00
 *   subtotal 2400.00; fees 1 % = 24.00; tax 13 % of 2424.00 = 315.12; total 2739.12
 *   Ann paid 5/6 = 2282.60, Ben 1/6 = 456.52
 *   each share 1200.00 × 1.1413 = 1369.56: 5/6 to Ann = 1141.30, 1/6 to Ben = 228.26
 */
async function severalPayers() {
  const g = await group(t, ["Ann", "Ben", "Cat"] as const);
  await g.policy("by_adder");
  await g.add("Ben", SOAP, 25);
  await g.add("Ben", BOARD, 12);
  await g.add("Cat", BOARD, 8);
  await g.add("Cat", SOAP, 50);
  expect((await g.summary()).total).toBe(2739.12);
  const order = await g.checkout({ Ann: 228260, Ben: 45652 });
  const ids = { Ann: g.id("Ann"), Ben: g.id("Ben"), Cat: g.id("Cat") };
  const url = `/api/orders/${order._id}`;
  const read = async () => (await g.as.Ann("GET", url)).json().order as Order;
  const line = (o: Order, adder: string, name: string) =>
    o.lines.findIndex((l) => l.addedBy._id === ids[adder as "Ann"] && l.name === name);
  return { ...g, order, ids, url, read, line };
}

/** Ben pays his part to Ann ("I've paid", Ann confirms); then two changes lower the order. */
async function severalPayersWithChanges() {
  const f = await severalPayers();
  const paid = await f.as.Ben("POST", `${f.url}/paid`);
  expect(paid.statusCode, paid.body).toBe(200);
  const confirmed = await f.as.Ann("POST", `${f.url}/confirm/${f.ids.Ben}`, { how: "transfer" });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  // Cat's boards were not delivered (her subtotal 600.00); Ben's boards came as penny boards at
  // 25.00 (12 × 25.00 = 300.00, his subtotal 600.00).
  for (const body of [
    { kind: "missing", lineIndex: f.line(f.order, "Cat", BOARD), note: "out of stock" },
    {
      kind: "substituted",
      lineIndex: f.line(f.order, "Ben", BOARD),
      name: "Penny board",
      unitPrice: 25,
    },
  ]) {
    const res = await f.as.Ann("POST", `${f.url}/adjustments`, body);
    expect(res.statusCode, res.body).toBe(201);
  }
  return f;
}

describe("several payers with changes after checkout", () => {
  it("at checkout: each share is owed to the payers as they paid", async () => {
    const f = await severalPayers();
    expect(f.order.total).toBe(2739.12);
    expect(f.order.split.filter((s) => s.total > 0).map((s) => [s.name, s.total])).toEqual([
      ["Ben", 1369.56],
      ["Cat", 1369.56],
    ]);
    expect(partsByName(f.order, f.ids)).toMatchObject({
      "Ben>Ann": { amount: 114130, open: 114130, credit: 0 },
      "Cat>Ann": { amount: 114130, open: 114130, credit: 0 },
      "Cat>Ben": { amount: 22826, open: 22826, credit: 0 },
    });
    // Ann is owed 1141.30 + 1141.30 = 2282.60, what she paid; Ben is owed 228.26 and owes
    // 1141.30: 456.52 paid less his share 1369.56 = -913.04.
    expect(await balancesOf(f.as.Ann)).toEqual({ [f.ids.Ben]: 114130, [f.ids.Cat]: 114130 });
    expect(await balancesOf(f.as.Ben)).toEqual({ [f.ids.Ann]: -114130, [f.ids.Cat]: 22826 });
  });

  it("Ben's part to Ann follows the changes, and his credit is what he paid Ann less it", async () => {
    const f = await severalPayersWithChanges();
    const order = await f.read();
    // subtotal 1200.00; fees 12.00; tax 13 % of 1212.00 = 157.56; total 1369.56.
    expect([order.subtotal, order.fees, order.tax, order.total]).toEqual([
      1200, 12, 157.56, 1369.56,
    ]);
    // The payers' amounts follow the total as they paid: 5/6 = 1141.30, 1/6 = 228.26.
    expect(order.payers.map((p) => [p.user.name, p.amount])).toEqual([
      ["Ann", 1141.3],
      ["Ben", 228.26],
    ]);
    // Each share 600.00 × 1.1413 = 684.78: 5/6 = 570.65 to Ann, 1/6 = 114.13 to Ben.
    // Ben paid Ann 1141.30: his credit with Ann is 1141.30 - 570.65 = 570.65 (his own 114.13
    // of his own share was never paid to Ann). Cat owes both payers their whole parts.
    expect(partsByName(order, f.ids)).toMatchObject({
      "Ben>Ann": { amount: 57065, open: 0, credit: 57065 },
      "Cat>Ann": { amount: 57065, open: 57065, credit: 0 },
      "Cat>Ben": { amount: 11413, open: 11413, credit: 0 },
    });
    const ben = order.split.find((s) => s.userId === f.ids.Ben)!;
    expect([ben.total, ben.credit, ben.status]).toEqual([684.78, 570.65, "confirmed"]);
    expect(order.split.find((s) => s.userId === f.ids.Cat)!.status).toBe("unpaid");

    // Balances: Ann owes Ben his credit and is owed Cat's part; Ben is owed by both.
    expect(await balancesOf(f.as.Ann)).toEqual({ [f.ids.Ben]: -57065, [f.ids.Cat]: 57065 });
    expect(await balancesOf(f.as.Ben)).toEqual({ [f.ids.Ann]: 57065, [f.ids.Cat]: 11413 });
    expect(await balancesOf(f.as.Cat)).toEqual({ [f.ids.Ann]: -57065, [f.ids.Ben]: -11413 });
    // Nets: Ann 570.65 - 570.65 = 0, Ben +684.78, Cat -684.78: one transfer, Cat pays Ben
    // 684.78, which nets Cat's debt to Ann through Ben, so it cannot be recorded as one.
    for (const who of ["Ann", "Ben", "Cat"] as const) {
      const plan = (await f.as[who]("GET", "/api/balances/settle-plan")).json().transfers;
      expect(plan).toEqual([
        {
          from: { _id: f.ids.Cat, name: "Cat" },
          to: { _id: f.ids.Ben, name: "Ben" },
          amount: 684.78,
          recordable: false,
        },
      ]);
    }
    // Cat's pay-info asks what she owes the payee Ann.
    const info = await f.as.Cat("GET", `${f.url}/pay-info`);
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json().amount).toBe(570.65);

    // The book: per pair, posted entries add up to the same figures; nothing is 0 or less.
    const { status, entries } = await readEntries(t, f.people.Ann.token, order._id);
    expect(status).toBe(200);
    expect(entries.every((e) => e.amount > 0 && e.from._id !== e.to._id)).toBe(true);
    const owes = (from: string, to: string) =>
      sum(
        entries
          .filter((e) => e.kind !== "paid" && e.kind !== "reversal")
          .map((e) =>
            e.from._id === from && e.to._id === to
              ? cents(e.amount)
              : e.from._id === to && e.to._id === from
                ? -cents(e.amount)
                : 0,
          ),
      );
    expect([
      owes(f.ids.Ben, f.ids.Ann),
      owes(f.ids.Cat, f.ids.Ann),
      owes(f.ids.Cat, f.ids.Ben),
    ]).toEqual([-57065, 57065, 11413]);
    expect(entries.map((e) => e.kind)).toEqual(
      expect.arrayContaining(["share", "paid", "confirmed", "adjustment"]),
    );
  });

  it("Ann pays Ben's credit back: a transfer from Ann to Ben of 570.65 clears it", async () => {
    const f = await severalPayersWithChanges();
    const res = await f.as.Ann("POST", "/api/balances/transfers", {
      to: f.ids.Ben,
      amount: 570.65,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().settled).toEqual([{ orderId: f.order._id, amount: 570.65 }]);
    const order = await f.read();
    expect(partsByName(order, f.ids)["Ben>Ann"]).toEqual({ amount: 57065, open: 0, credit: 0 });
    expect(order.split.find((s) => s.userId === f.ids.Ben)!.credit).toBe(0);
    expect(await balancesOf(f.as.Ann)).toEqual({ [f.ids.Cat]: 57065 });
    const { entries } = await readEntries(t, f.people.Ann.token, order._id);
    expect(entries.at(-1)).toMatchObject({
      kind: "credit_back",
      from: { _id: f.ids.Ben },
      to: { _id: f.ids.Ann },
      amount: 570.65,
      by: { _id: f.ids.Ann },
    });
  });
});

describe("a write-off with two payers", () => {
  it("clears only the writing-off payer's part: the other payer is still owed", async () => {
    const f = await severalPayers();
    // Cat deletes her account: what she owes stays owed (nobody owes her anything).
    const gone = await f.as.Cat("DELETE", "/api/users/me", {
      password: PASSWORD,
      acknowledgeUnsettled: true,
    });
    expect(gone.statusCode, gone.body).toBe(204);
    // Ann writes off Cat's share: only Cat's 1141.30 owed to Ann.
    const res = await f.as.Ann("POST", `${f.url}/confirm/${f.ids.Cat}`, { how: "written_off" });
    expect(res.statusCode, res.body).toBe(200);
    const order = res.json().order as Order;
    expect(partsByName(order, f.ids)).toMatchObject({
      "Cat>Ann": { amount: 114130, open: 0, credit: 0 },
      "Cat>Ben": { amount: 22826, open: 22826, credit: 0 },
    });
    expect(order.split.find((s) => s.userId === f.ids.Cat)!.status).toBe("unpaid");
    // Ben's balance still shows Cat's 228.26; Ann's shows only Ben's 1141.30.
    expect(await balancesOf(f.as.Ben)).toEqual({ [f.ids.Ann]: -114130, [f.ids.Cat]: 22826 });
    expect(await balancesOf(f.as.Ann)).toEqual({ [f.ids.Ben]: 114130 });
    // Nets: Ann +1141.30, Ben 228.26 - 1141.30 = -913.04, Cat -228.26. The one who owes most
    // pays the one owed most: Ben pays Ann 913.04, then Cat pays Ann 228.26.
    const plan = (await f.as.Ben("GET", "/api/balances/settle-plan")).json().transfers as {
      from: { name: string };
      to: { name: string };
      amount: number;
    }[];
    expect(plan.map((p) => [p.from.name, p.to.name, p.amount])).toEqual([
      ["Ben", "Ann", 913.04],
      [expect.any(String), "Ann", 228.26],
    ]);
    // Ben writes off his part too: now nobody is owed on Cat's share.
    const ben = await f.as.Ben("POST", `${f.url}/confirm/${f.ids.Cat}`, { how: "written_off" });
    expect(ben.statusCode, ben.body).toBe(200);
    expect(await balancesOf(f.as.Ben)).toEqual({ [f.ids.Ann]: -114130 });
    const { entries } = await readEntries(t, f.people.Ann.token, f.order._id);
    expect(
      entries
        .filter((e) => e.kind === "written_off")
        .map((e) => [e.from._id, e.to._id, e.amount, e.by._id]),
    ).toEqual([
      [f.ids.Ann, f.ids.Cat, 1141.3, f.ids.Ann],
      [f.ids.Ben, f.ids.Cat, 228.26, f.ids.Ben],
    ]);
  });
});

describe("the order's files after changes", () => {
  it("the CSV adds up and the receipt names every payer and every part", async () => {
    const f = await severalPayersWithChanges();
    const csv = await f.as.Ann("GET", `${f.url}/export.csv`);
    expect(csv.statusCode).toBe(200);
    const rows = parse(csv.body, { bom: true, columns: true }) as Record<string, string>[];
    const total = (type: string) =>
      sum(rows.filter((r) => r.type === type).map((r) => cents(Number(r.total))));
    // Lines as placed: 300.00 + 900.00 + 600.00 + 600.00 = 2400.00; the changes: Cat's boards
    // -600.00, Ben's boards 900.00 -> 300.00 = -600.00; together the subtotal 1200.00.
    expect(total("line")).toBe(240000);
    expect(rows.filter((r) => r.type === "adjustment").map((r) => r.total)).toEqual([
      "-600.00",
      "-600.00",
    ]);
    const totalRow = rows.find((r) => r.type === "order_total")!;
    expect([totalRow.subtotal, totalRow.fees, totalRow.tax, totalRow.total]).toEqual([
      "1200.00",
      "12.00",
      "157.56",
      "1369.56",
    ]);
    expect(total("line") + total("adjustment")).toBe(cents(Number(totalRow.subtotal)));
    // The shares, 684.78 each, add up to the total row.
    expect(total("share") + total("payee_share")).toBe(136956);
    // Ben's payment to Ann is a row of its own.
    const known = ["line", "adjustment", "share", "payee_share", "order_total"];
    expect(rows.some((r) => !known.includes(r.type!) && r.total === "1141.30")).toBe(true);

    const pdf = await f.as.Ann("GET", `${f.url}/receipt.pdf`);
    expect(pdf.statusCode).toBe(200);
    const text = await pdfText(new Uint8Array(pdf.rawPayload));
    expect(text).not.toContain("every other share is owed to");
    for (const figure of ["$1,369.56", "$684.78", "$570.65", "$114.13"]) {
      expect(text).toContain(figure);
    }
    expect(text).toMatch(/Ann/);
    expect(text).toMatch(/Ben/);
  });
});

describe("rounding is fair", () => {
  /** Exact shares as fractions of a cent: within one cent means strictly less than 1 away. */
  const within = (value: number, numerator: number, denominator: number) =>
    Math.abs(cents(value) * denominator - numerator) < denominator;

  it("an equal split of a 30-line cart among three: each share within a cent of a third", async () => {
    const g = await group(t, ["Ann", "Ben", "Cat"] as const);
    await g.policy("equal");
    // The 30 cheapest products in stock, one each, added in turn by Ann, Ben and Cat:
    // 2.29 + 4.49 + 4.99 + 5.49 + 5.99 + 6.50 + 6.99 + 7.49 + 8.99 + 8.99 + 8.99 + 11.00 + 12.00
    // + 12.99 + 14.50 + 14.50 + 14.99 + 15.00 + 18.00 + 19.00 + 19.99 + 22.00 + 22.00 + 24.00
    // + 24.00 + 29.00 + 29.00 + 34.00 + 35.00 + 39.00 = 481.17, a third of it 160.39 exactly.
    // Fees 1 % = 4.8117 -> 4.81; tax 13 % of 485.98 = 63.1774 -> 63.18; total 549.16.
    // Each exact share: subtotal 160.39, fees 1.60333, tax 21.06, total 183.05333.
    const who = ["Ann", "Ben", "Cat"] as const;
    for (const [i, name] of CHEAPEST.entries()) await g.add(who[i % 3]!, name, 1);
    const summary = await g.summary();
    const order = await g.checkout();
    for (const shares of [summary.split, order.split]) {
      expect(shares.map((s) => s.subtotal)).toEqual([160.39, 160.39, 160.39]);
      expect(sum(shares.map((s) => cents(s.total)))).toBe(54916);
      for (const s of shares) {
        expect(within(s.fees, 481, 3), `fees ${s.fees}`).toBe(true);
        expect(s.tax).toBe(21.06);
        expect(within(s.total, 54916, 3), `total ${s.total}`).toBe(true);
      }
    }
  });

  it("weights 100/100/50 on 7 lines: each share within a cent of 2/5, 2/5 and 1/5", async () => {
    const g = await group(t, ["Ann", "Ben", "Cat"] as const);
    await g.policy("weights", { Ann: 100, Ben: 100, Cat: 50 });
    // 2.29 + 4.49 + 4.99 + 5.49 + 5.99 + 6.50 + 11.00 = 40.75: Ann and Ben 2/5 = 16.30 each,
    // Cat 1/5 = 8.15. Fees 1 % = 0.4075 -> 0.41 (16.4, 16.4, 8.2 cents exactly); tax 13 % of
    // 41.16 = 5.3508 -> 5.35 (2.14, 2.14, 1.07); total 46.51: 18.604, 18.604 and 9.302.
    const lines = [...CHEAPEST.slice(0, 6), "Street Taco Trio"];
    for (const [i, name] of lines.entries())
      await g.add((["Ann", "Ben", "Cat"] as const)[i % 3]!, name, 1);
    const summary = await g.summary();
    const order = await g.checkout();
    // In fifths of a cent: subtotal, fees, tax, total.
    const exact = {
      Ann: [8150, 82, 1070, 9302],
      Ben: [8150, 82, 1070, 9302],
      Cat: [4075, 41, 535, 4651],
    } as const;
    for (const shares of [summary.split, order.split]) {
      expect(sum(shares.map((s) => cents(s.total)))).toBe(4651);
      for (const [name, fifths] of Object.entries(exact)) {
        const s = shares.find((x) => x.userId === g.id(name as "Ann"))!;
        (["subtotal", "fees", "tax", "total"] as const).forEach((figure, i) => {
          expect(within(s[figure], fifths[i]!, 5), `${name}'s ${figure} ${s[figure]}`).toBe(true);
        });
      }
    }
  });
});

describe("free lines (found by the model test)", () => {
  it("a cart of free lines at no estimate checks out at 0; priced, its adder owes the payee", async () => {
    const g = await group(t, ["Ann", "Ben"] as const);
    const url = `/api/carts/${g.session.cartId}/free-lines`;
    const added = await g.as.Ben("POST", url, { name: "Ice" });
    expect(added.statusCode, added.body).toBe(200);
    const order = await g.checkout();
    expect([order.total, order.split, order.parts]).toEqual([0, [], []]);
    const priced = await g.as.Ann("POST", `/api/orders/${order._id}/adjustments`, {
      kind: "price",
      lineIndex: 0,
      unitPrice: 2.5,
    });
    expect(priced.statusCode, priced.body).toBe(201);
    // 2.50, fees 1 % = 0.03, tax 13 % of 2.53 = 0.33: Ben owes Ann 2.86.
    const ids = { Ann: g.id("Ann"), Ben: g.id("Ben") };
    expect(partsByName(priced.json().order as Order, ids)).toEqual({
      "Ben>Ann": { amount: 286, open: 286, credit: 0 },
    });
  });
});
