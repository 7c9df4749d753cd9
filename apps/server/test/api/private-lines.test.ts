/**
 * Private lines (a present): the adder or the creator hides a line from chosen members. For them
 * the line does not exist in any read route of the endpoint table that a member can call on the
 * session (walked from the table, not listed), nor in the activity log; its cost stays in the
 * totals and shares, so their figures add up, with the count of private lines beside them. The
 * order keeps it so (every order read, receipt, CSV, mail and notice) until the payee reveals it.
 */
import { endpoints, splitEndpointKey, type EndpointKey } from "@cartner/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDevOutbox, createSmtpMailer } from "../../src/features/mail/mailer.ts";
import { group, readRoutes } from "../group-support.ts";
import { cents, createTestApp, signUp, type TestApp } from "../helpers.ts";
import { MailSink, textOf } from "../mail-sink.ts";
import { pdfText } from "../pdf-text.ts";

let t: TestApp;
/** The mails, received by a real SMTP server; a copy lands in the dev outbox (sign-up codes). */
const sink = new MailSink();
beforeAll(async () => {
  await sink.start();
  const smtp = createSmtpMailer(`smtp://127.0.0.1:${sink.port}`, "Cartner <no-reply@cartner.test>");
  const silent = { info: () => {} } as unknown as Parameters<typeof createDevOutbox>[1];
  t = await createTestApp({
    mailer: {
      async send(mail) {
        await smtp.send(mail);
        await createDevOutbox(t.database.db, silent).send(mail);
      },
      close: () => smtp.close(),
    },
  });
});
afterAll(async () => {
  await t?.close();
  await sink.stop();
});

type Line = { _id: string; productId: { _id: string; name: string }; hiddenFrom: string[] };
type Share = { userId: string; total: number; subtotal: number };

/** Ann creates, Ben and Cat take part; Ben adds a present for Cat and hides it from her. */
async function present() {
  const g = await group(t, ["Ann", "Ben", "Cat"] as const);
  await g.add("Cat", "Cosy Knit Scarf", 1);
  await g.add("Ben", "Pulse Fitness Watch", 2);
  const cart = (await g.as.Ben("GET", `/api/carts/${g.session.cartId}`)).json().cart;
  const line = (cart.products as Line[]).find((l) => l.productId.name === "Pulse Fitness Watch")!;
  const url = `/api/carts/${g.session.cartId}/lines/${line._id}/hidden-from`;
  return { ...g, line, url };
}

describe("hiding a line", () => {
  it("hides it from the chosen member; the adder and the creator see whom it is hidden from", async () => {
    const g = await present();
    const res = await g.as.Ben("PUT", g.url, { userIds: [g.id("Cat")] });
    expect(res.statusCode, res.body).toBe(200);
    const mine = (res.json().cart.products as Line[]).find((l) => l._id === g.line._id)!;
    expect(mine.hiddenFrom).toEqual([g.id("Cat")]);
    expect(res.json().cart.privateCount).toBe(0);
    const ann = (await g.as.Ann("GET", `/api/carts/${g.session.cartId}`)).json().cart;
    expect((ann.products as Line[]).find((l) => l._id === g.line._id)!.hiddenFrom).toEqual([
      g.id("Cat"),
    ]);

    const cat = (await g.as.Cat("GET", `/api/carts/${g.session.cartId}`)).json().cart;
    expect((cat.products as Line[]).map((l) => l.productId.name)).toEqual(["Cosy Knit Scarf"]);
    expect(cat.privateCount).toBe(1);
    expect(cat.itemCount).toBe(1);
    expect(cat.totalPrice).toBe(ann.totalPrice);
    expect(cat.split).toEqual(ann.split);

    // Shown to everyone again.
    const back = await g.as.Ann("PUT", g.url, { userIds: [] });
    expect(back.statusCode, back.body).toBe(200);
    const again = (await g.as.Cat("GET", `/api/carts/${g.session.cartId}`)).json().cart;
    expect(again.products).toHaveLength(2);
    expect(again.privateCount).toBe(0);
  });

  it.each([
    ["oneself", "Ben", "Ben", "You cannot hide an item from yourself."],
    ["the creator", "Ben", "Ann", "An item is never hidden from the session's creator."],
    ["the adder", "Ann", "Ben", "An item is never hidden from whoever added it."],
    ["a non-member", "Ben", "Zed", "An item is hidden only from members of the session."],
  ] as const)("refuses hiding it from %s with 400", async (_what, by, target, message) => {
    const g = await present();
    const zed = await signUp(t, "Zed");
    const id = target === "Zed" ? zed.userId : g.id(target);
    const res = await g.as[by]("PUT", g.url, { userIds: [id] });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toBe(`Invalid userIds: ${message}`);
    expect(res.json().fields.userIds).toBe(message);
  });

  it("refuses a participant hiding another's line, and a duplicate id", async () => {
    const g = await present();
    const other = await g.as.Cat("PUT", g.url, { userIds: [] });
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe(
      "Only the item's adder or the session's creator can hide it.",
    );
    const twice = await g.as.Ben("PUT", g.url, { userIds: [g.id("Cat"), g.id("Cat")] });
    expect(twice.statusCode).toBe(400);
  });
});

describe("what the member it is hidden from sees", () => {
  it("no trace of the lines in any read route, nor in the log; the figures add up", async () => {
    const g = await present();
    // A free line too: its name is in no catalog, so no route may carry it.
    const free = await g.as.Ben("POST", `/api/carts/${g.session.cartId}/free-lines`, {
      name: "Pottery class voucher",
    });
    expect(free.statusCode, free.body).toBe(200);
    const voucher = (free.json().cart.products as Line[]).find(
      (l) => l.productId.name === "Pottery class voucher",
    )!;
    // What Cat was told while the lines were not yet hidden stays told (decision 049): the
    // notices kept from then are her baseline, and nothing after the hiding may add to them.
    await t.app.idle();
    const toldBefore = (await g.as.Cat("GET", "/api/notifications")).json();
    for (const id of [g.line._id, voucher._id]) {
      const url = `/api/carts/${g.session.cartId}/lines/${id}/hidden-from`;
      const hid = await g.as.Ben("PUT", url, { userIds: [g.id("Cat")] });
      expect(hid.statusCode, hid.body).toBe(200);
    }
    // A change to the line after it was hidden, and its entries from before.
    const step = await g.as.Ben("PATCH", `/api/carts/${g.session.cartId}/quantity`, {
      productId: g.line.productId._id,
      change: 1,
    });
    expect(step.statusCode, step.body).toBe(200);
    // The notices of these changes are told after the answers.
    await t.app.idle();
    const annNotices = await g.as.Ann("GET", "/api/notifications");
    expect(annNotices.body).toContain(g.line.productId.name);
    // The product is in the catalog for all to see; the line's id, and the free line, nowhere.
    const traces = [g.line._id, voucher._id, "Pottery class voucher"];

    const routes = readRoutes(g.session);
    expect(routes.map((r) => r.key)).toEqual(
      expect.arrayContaining([
        "GET /api/carts",
        "GET /api/carts/:cartId",
        "GET /api/sessions/:id/summary",
        "GET /api/sessions/:id/activity",
      ]),
    );
    // The routes that carry her notices (told before the hiding) are checked against the baseline.
    const notices = new Set<EndpointKey>(["GET /api/notifications", "GET /api/users/me/export"]);
    for (const { key, url } of routes) {
      const res = await g.as.Cat("GET", url);
      expect(res.statusCode, `${key}: ${res.body}`).toBeLessThan(500);
      if (notices.has(key)) continue;
      for (const trace of traces) expect(res.body, key).not.toContain(trace);
    }
    expect((await g.as.Cat("GET", "/api/notifications")).json()).toEqual(toldBefore);
    // The others see them: the routes do carry lines.
    const ann = await g.as.Ann("GET", `/api/carts/${g.session.cartId}`);
    for (const trace of traces) expect(ann.body).toContain(trace);
    const log = await g.as.Ann("GET", `/api/sessions/${g.session._id}/activity`);
    expect(log.body).toContain("Pottery class voucher");
    expect(log.body).toContain(g.line.productId.name);
    // Nor the product's name, where only the line could have put it: the log and the notices.
    const catLog = await g.as.Cat("GET", `/api/sessions/${g.session._id}/activity`);
    expect(catLog.body).not.toContain(g.line.productId.name);

    const summary = (await g.as.Cat("GET", `/api/sessions/${g.session._id}/summary`)).json();
    expect(summary.privateCount).toBe(2);
    expect(summary.cartItems).toHaveLength(1);
    const shares = (summary.split as Share[]).reduce((s, x) => s + cents(x.total), 0);
    expect(shares).toBe(cents(summary.total));
    const cart = (await g.as.Cat("GET", `/api/carts/${g.session.cartId}`)).json().cart;
    expect(cart.privateCount).toBe(2);
    expect((cart.split as Share[]).reduce((s, x) => s + cents(x.total), 0)).toBe(shares);
  });
});

describe("a stock refusal", () => {
  it("counts in the cart only the units the member sees", async () => {
    const g = await present();
    await g.add("Ben", "Metro Commuter Bike", 4);
    await g.add("Ann", "Metro Commuter Bike", 1);
    const cart = (await g.as.Ben("GET", `/api/carts/${g.session.cartId}`)).json().cart;
    const bike = (cart.products as Line[]).find(
      (l) => l.productId.name === "Metro Commuter Bike" && l._id !== g.line._id,
    )!;
    const bens = (cart.products as (Line & { addedBy: { _id: string } })[]).find(
      (l) => l.productId.name === "Metro Commuter Bike" && l.addedBy._id === g.id("Ben"),
    )!;
    const url = `/api/carts/${g.session.cartId}/lines/${bens._id}/hidden-from`;
    expect((await g.as.Ben("PUT", url, { userIds: [g.id("Cat")] })).statusCode).toBe(200);
    const add = { productId: bike.productId._id, quantity: 3 };
    const cat = await g.as.Cat("POST", `/api/carts/${g.session.cartId}/product`, add);
    expect(cat.statusCode).toBe(409);
    expect(cat.json().message).toBe("Only 6 in stock, and 1 already in this cart.");
    const ann = await g.as.Ann("POST", `/api/carts/${g.session.cartId}/product`, add);
    expect(ann.json().message).toBe("Only 6 in stock, and 5 already in this cart.");
  });
});

/**
 * Ann checks out a cart where Ben's present (a watch) and his free line (a voucher at an
 * estimate) are hidden from Cat; Cat's notices from before the hiding are her baseline.
 */
async function placed() {
  const g = await present();
  const free = await g.as.Ben("POST", `/api/carts/${g.session.cartId}/free-lines`, {
    name: "Pottery class voucher",
    estimatedPrice: 45,
  });
  expect(free.statusCode, free.body).toBe(200);
  const voucher = (free.json().cart.products as Line[]).find(
    (l) => l.productId.name === "Pottery class voucher",
  )!;
  await t.app.idle();
  const toldBefore = (await g.as.Cat("GET", "/api/notifications")).json().notifications as {
    _id: string;
  }[];
  for (const id of [g.line._id, voucher._id]) {
    const url = `/api/carts/${g.session.cartId}/lines/${id}/hidden-from`;
    const hid = await g.as.Ben("PUT", url, { userIds: [g.id("Cat")] });
    expect(hid.statusCode, hid.body).toBe(200);
  }
  const placedRes = await g.as.Ann("POST", `/api/sessions/${g.session._id}/checkout`);
  expect(placedRes.statusCode, placedRes.body).toBe(201);
  const order = placedRes.json().order as Order;
  // The checkout mails go now, while the voucher is at its estimate (the mail names such lines).
  await t.app.idle();
  const watchPrice = (await g.as.Ann("GET", `/api/products/${g.line.productId._id}`)).json().product
    .price as number;
  return { ...g, voucher, order, toldBefore, watchPrice };
}

type OrderLine = {
  name: string;
  productId: string | null;
  hiddenFrom: string[];
  unitPrice: number;
  lineTotal: number;
  adjusted: { lineTotal: number } | null;
  addedBy: { _id: string };
};
type Order = {
  _id: string;
  lines: OrderLine[];
  adjustments: { _id: string; kind: string; lineIndex?: number }[];
  split: { userId: string; total: number }[];
  subtotal: number;
  total: number;
  privateCount: number;
};

const WATCH = "Pulse Fitness Watch";
const VOUCHER = "Pottery class voucher";

describe("checkout", () => {
  it("is refused to a member some lines are hidden from (a count, who checks out), not to their adder", async () => {
    const g = await present();
    await g.as.Ben("PUT", g.url, { userIds: [g.id("Cat")] });
    const opened = await g.as.Ann("PATCH", `/api/sessions/${g.session._id}`, {
      checkoutBy: "members",
    });
    expect(opened.statusCode, opened.body).toBe(200);
    const checkout = `/api/sessions/${g.session._id}/checkout`;
    const refused = await g.as.Cat("POST", checkout);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      "1 item in the cart is private and hidden from you: the session's creator or whoever added it checks out.",
    );
    expect(refused.body).not.toContain(WATCH);
    expect(refused.body).not.toContain(g.line._id);
    // The adder checks out: the order keeps the line private; the payee is the creator.
    const byBen = await g.as.Ben("POST", checkout);
    expect(byBen.statusCode, byBen.body).toBe(201);
    const order = byBen.json().order as Order;
    expect(order.privateCount).toBe(0);
    expect(order.lines.find((l) => l.name === WATCH)!.hiddenFrom).toEqual([g.id("Cat")]);
    const cat = (await g.as.Cat("GET", `/api/orders/${order._id}`)).json().order as Order;
    expect(cat.lines.map((l) => l.name)).toEqual(["Cosy Knit Scarf"]);
    expect(cat.privateCount).toBe(1);
  });
});

/** Every GET route of the endpoint table a member of the order can fill in. */
function orderReadRoutes(g: Awaited<ReturnType<typeof placed>>) {
  return (Object.keys(endpoints) as EndpointKey[]).flatMap((key) => {
    const [method, path] = splitEndpointKey(key);
    if (method !== "GET") return [];
    const ofOrder = path.startsWith("/api/orders") || path.startsWith("/api/balances");
    const values: Record<string, string> = {
      id: ofOrder ? g.order._id : g.session._id,
      sessionId: g.session._id,
      cartId: g.session.cartId,
      code: g.session.sessionCode,
    };
    const params = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    if (!params.every((p) => p in values)) return [];
    return [{ key, ofOrder, url: path.replace(/:(\w+)/g, (_, p: string) => values[p]!) }];
  });
}

const sumCents = (xs: number[]) => xs.reduce((s, x) => s + cents(x), 0);

describe("an order with private lines", () => {
  it("has no trace of them for the member they are hidden from, in any read, receipt, CSV, mail or notice; the figures add up", async () => {
    const g = await placed();
    const url = `/api/orders/${g.order._id}`;
    // Ann (the payee) sees every line at its stored index, and whom each is hidden from.
    const names = g.order.lines.map((l) => l.name);
    expect(names).toEqual(expect.arrayContaining([WATCH, VOUCHER, "Cosy Knit Scarf"]));
    expect(g.order.lines.find((l) => l.name === WATCH)!.hiddenFrom).toEqual([g.id("Cat")]);
    const at = (name: string) => names.indexOf(name);
    // Changes after checkout: the watch refunded, the voucher priced, the scarf refunded, a fee.
    for (const body of [
      { kind: "refund", lineIndex: at(WATCH), amount: 1 },
      { kind: "price", lineIndex: at(VOUCHER), unitPrice: 40 },
      { kind: "refund", lineIndex: at("Cosy Knit Scarf"), amount: 2 },
      { kind: "order_fee", amount: 0.5 },
    ]) {
      const res = await g.as.Ann("POST", `${url}/adjustments`, body);
      expect(res.statusCode, res.body).toBe(201);
    }
    await t.app.idle();
    const ann = (await g.as.Ann("GET", url)).json().order as Order;
    expect(ann.adjustments).toHaveLength(4);
    const watchAdjustment = ann.adjustments[0]!;

    const traces = [g.line._id, g.voucher._id, g.line.productId._id, WATCH, VOUCHER];
    const routes = orderReadRoutes(g);
    expect(routes.map((r) => r.key)).toEqual(
      expect.arrayContaining([
        "GET /api/orders",
        "GET /api/orders/:id",
        "GET /api/orders/:id/entries",
        "GET /api/orders/:id/receipt.pdf",
        "GET /api/orders/:id/export.csv",
        "GET /api/orders/export.csv",
        "GET /api/sessions/:id/activity",
      ]),
    );
    for (const { key, url: at, ofOrder } of routes) {
      // Her notices from before the hiding are checked below, against the baseline.
      if (key === "GET /api/notifications" || key === "GET /api/users/me/export") continue;
      const res = await g.as.Cat("GET", at);
      expect(res.statusCode, `${key}: ${res.body}`).toBeLessThan(500);
      const body =
        key === "GET /api/orders/:id/receipt.pdf"
          ? await pdfText(new Uint8Array(res.rawPayload))
          : res.body;
      // The catalog lists every product: outside the order's routes only the lines can leak.
      const checked =
        ofOrder || key.includes("activity") ? traces : [g.line._id, g.voucher._id, VOUCHER];
      for (const trace of checked) expect(body, key).not.toContain(trace);
      if (key === "GET /api/orders/:id/receipt.pdf")
        expect(body).toContain("Includes 2 private items");
    }

    // Her order: the scarf alone, its refund renumbered to her lines, the fee; the figures add up.
    const cat = (await g.as.Cat("GET", url)).json().order as Order;
    expect(cat.privateCount).toBe(2);
    expect(cat.lines.map((l) => l.name)).toEqual(["Cosy Knit Scarf"]);
    expect(cat.lines.some((l) => l.addedBy._id === g.id("Ben"))).toBe(false);
    expect(cat.lines.some((l) => l.unitPrice === g.watchPrice)).toBe(false);
    expect(cat.adjustments.map((a) => [a.kind, a.lineIndex])).toEqual([
      ["refund", 0],
      ["order_fee", undefined],
    ]);
    expect(cat.total).toBe(ann.total);
    expect(cat.subtotal).toBe(ann.subtotal);
    expect(cat.split).toEqual(ann.split);
    expect(sumCents(cat.split.map((s) => s.total))).toBe(cents(cat.total));
    const listed = (await g.as.Cat("GET", "/api/orders")).json().orders as Order[];
    expect(listed.find((o) => o._id === g.order._id)).toEqual(cat);

    // Her CSV: one "private" row of what the lines hidden from her cost now; with her lines and
    // the changes she sees (the order fee among them) it adds up to the subtotal plus the fee.
    const csv = (await g.as.Cat("GET", `${url}/export.csv`)).body.replace(/^\uFEFF/, "");
    const rows = csv
      .trim()
      .split("\r\n")
      .map((r) => r.split(","));
    const header = rows[0]!;
    const [type, total] = [header.indexOf("type"), header.indexOf("total")];
    const counted = rows.filter((r) => ["line", "adjustment", "private"].includes(r[type]!));
    const privateRows = counted.filter((r) => r[type] === "private");
    expect(privateRows).toHaveLength(1);
    const privateLines = ann.lines.filter((l) => l.name === WATCH || l.name === VOUCHER);
    const hiddenNow = sumCents(privateLines.map((l) => l.adjusted?.lineTotal ?? l.lineTotal));
    expect(cents(Number(privateRows[0]![total]))).toBe(hiddenNow);
    const subtotal = rows.find((r) => r[type] === "order_total")![header.indexOf("subtotal")]!;
    expect(sumCents(counted.map((r) => Number(r[total])))).toBe(cents(Number(subtotal)) + 50);

    // Probing a line she does not see is answered as for one that does not exist.
    const dispute = (adjId: string) =>
      g.as.Cat("POST", `${url}/adjustments/${adjId}/dispute`, { comment: "What is this?" });
    // Each answer but its request's id.
    const answer = (res: { statusCode: number; json: () => Record<string, unknown> }) => {
      const { requestId: _id, ...body } = res.json();
      return [res.statusCode, body];
    };
    const hidden = await dispute(watchAdjustment._id);
    const none = await dispute("00000000-0000-4000-8000-000000000000");
    expect(answer(hidden)).toEqual(answer(none));
    expect(hidden.statusCode).toBe(404);
    const adjust = (lineIndex: number) =>
      g.as.Cat("POST", `${url}/adjustments`, { kind: "missing", lineIndex });
    const onHidden = await adjust(at(WATCH));
    const onNothing = await adjust(99);
    expect(answer(onHidden)).toEqual(answer(onNothing));

    // Her mail says how many private items the total includes, and names none; Ben's names them.
    const catMails = sink.received.filter((m) => m.to.includes(g.people.Cat.email));
    expect(catMails.length).toBeGreaterThan(0);
    for (const m of catMails)
      for (const trace of traces) expect(textOf(m.raw)).not.toContain(trace);
    expect(catMails.map((m) => textOf(m.raw)).join("\n")).toContain("(includes 2 private items)");
    const benMail = sink.received.filter((m) => m.to.includes(g.people.Ben.email));
    expect(benMail.map((m) => textOf(m.raw)).join("\n")).toContain(VOUCHER);
    // Her notices since the hiding name none of it.
    const told = (await g.as.Cat("GET", "/api/notifications")).json().notifications as {
      _id: string;
    }[];
    const before = new Set(g.toldBefore.map((n) => n._id));
    const since = told.filter((n) => !before.has(n._id));
    expect(since.length).toBeGreaterThan(0);
    for (const trace of traces) expect(JSON.stringify(since)).not.toContain(trace);
  });
});

describe("buying again after an order with private lines", () => {
  it("offers the member they were hidden from none of them; their adder all of them", async () => {
    const g = await placed();
    // The same three start another session.
    const next = await g.as.Ann("POST", "/api/sessions", {
      sessionName: "Next Saturday",
      sessionType: "Friends",
      participants: "3+",
      passcode: "tulip",
    });
    expect(next.statusCode, next.body).toBe(201);
    const session = next.json().session as { sessionCode: string; cartId: string };
    for (const n of ["Ben", "Cat"] as const) {
      const asked = await g.as[n]("POST", "/api/sessions/join/code", {
        sessionCode: session.sessionCode,
        passcode: "tulip",
      });
      expect(asked.statusCode, asked.body).toBe(202);
      const ok = await g.as.Ann("POST", `/api/sessions/approve/${session.sessionCode}`, {
        userId: g.id(n),
      });
      expect(ok.statusCode, ok.body).toBe(200);
    }
    const url = `/api/carts/${session.cartId}/buy-again`;
    const cat = await g.as.Cat("GET", url);
    expect(cat.statusCode, cat.body).toBe(200);
    expect(cat.body).toContain("Cosy Knit Scarf");
    for (const trace of [WATCH, VOUCHER, g.line.productId._id]) {
      expect(cat.body).not.toContain(trace);
    }
    const ben = (await g.as.Ben("GET", url)).body;
    for (const trace of [WATCH, VOUCHER]) expect(ben).toContain(trace);
  });
});

describe("revealing an order's private lines", () => {
  it("is the payee's: every member sees them, in the order, the cart and the log; twice changes nothing", async () => {
    const g = await placed();
    const url = `/api/orders/${g.order._id}`;
    const adjusted = await g.as.Ann("POST", `${url}/adjustments`, {
      kind: "refund",
      lineIndex: g.order.lines.findIndex((l) => l.name === WATCH),
      amount: 1,
    });
    expect(adjusted.statusCode, adjusted.body).toBe(201);
    for (const who of ["Ben", "Cat"] as const) {
      const refused = await g.as[who]("POST", `${url}/reveal`);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe("Only the payee shows the private items to everyone.");
    }
    const log = `/api/sessions/${g.session._id}/activity`;
    const catLog = (await g.as.Cat("GET", log)).body;
    expect(catLog).not.toContain(WATCH);

    const revealed = await g.as.Ann("POST", `${url}/reveal`);
    expect(revealed.statusCode, revealed.body).toBe(200);
    const order = revealed.json().order as Order;
    expect(order.lines.every((l) => l.hiddenFrom.length === 0)).toBe(true);
    const cat = (await g.as.Cat("GET", url)).json().order as Order;
    expect(cat.privateCount).toBe(0);
    expect(cat.lines.map((l) => l.name)).toEqual(order.lines.map((l) => l.name));
    expect(cat.adjustments).toHaveLength(1);
    const cart = (await g.as.Cat("GET", `/api/carts/${g.session.cartId}`)).json().cart;
    expect(cart.privateCount).toBe(0);
    expect(cart.products).toHaveLength(3);
    const after = (await g.as.Cat("GET", log)).json().events as {
      type: string;
      product?: string;
      line?: string;
      count?: number;
    }[];
    expect(after.some((e) => e.type === "item.added" && e.product === WATCH)).toBe(true);
    expect(after.some((e) => e.type === "order.adjusted" && e.line === WATCH)).toBe(true);
    expect(after.filter((e) => e.type === "order.revealed")).toMatchObject([{ count: 2 }]);

    const again = await g.as.Ann("POST", `${url}/reveal`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().order).toEqual(order);
    const still = (await g.as.Cat("GET", log)).json().events as { type: string }[];
    expect(still.filter((e) => e.type === "order.revealed")).toHaveLength(1);
  });
});
