/**
 * Checkout, orders, settling up, receipts and mails, through the API (PGlite and
 * PostgreSQL). Roles per route are walked by authorization.test.ts; here, what each call does,
 * its races and its bad input.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devMails } from "../../src/db/schema.ts";
import { createDevOutbox, type Mail } from "../../src/features/mail/mailer.ts";
import {
  sum,
  cents,
  createTestApp,
  filledSession as filledSessionOf,
  sessionWithEveryRole,
  type TestApp,
} from "../helpers.ts";
import { listenForLive, signedIn } from "../live-peers.ts";
import { pdfText } from "../pdf-text.ts";

/** Order mails to these addresses fail (a mail server refusing them); the rest go to the outbox. */
const failingTo = new Set<string>();
let t: TestApp;
let products: { _id: string; price: number; stock: number; name: string }[];
beforeAll(async () => {
  const silent = { info: () => {} } as unknown as Parameters<typeof createDevOutbox>[1];
  t = await createTestApp({
    mailer: {
      async send(mail: Mail) {
        if (failingTo.has(mail.to)) throw new Error("550 mailbox unavailable");
        await createDevOutbox(t.database.db, silent).send(mail);
      },
      close: () => {},
    },
  });
  const f = await sessionWithEveryRole(t);
  products = (await f.as.creator("GET", "/api/products?limit=50")).json().products;
});
afterAll(async () => t.close());

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const money = (n: number) => usd.format(n);

/** Ann (creator), Ben (participant) with a line each; Vic views, Pat waits, Sam is a stranger. */
const filledSession = () => filledSessionOf(t);

describe("checkout", () => {
  it("turns the cart into an order equal to the summary, ends the session and locks the cart", async () => {
    const f = await filledSession();
    const summary = (await f.as.participant("GET", `/api/sessions/${f.sessionId}/summary`)).json();
    const res = await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`);
    expect(res.statusCode, res.body).toBe(201);
    const { order } = res.json();
    expect(order.number).toMatch(/^CRT-\d{6}$/);
    expect(order.sessionName).toBe("Weekend groceries");
    expect(order.payee).toEqual({ _id: f.people.creator.userId, name: "Ann" });
    expect(order.placedBy.name).toBe("Ann");
    expect(order.lines.map((l: { addedBy: { name: string } }) => l.addedBy.name).sort()).toEqual([
      "Ann",
      "Ben",
    ]);
    // The shares add up to the totals to the cent, and equal the summary at checkout.
    for (const key of ["subtotal", "fees", "tax", "total"] as const) {
      expect(sum(order.split.map((s: Record<string, number>) => cents(s[key]!)))).toBe(
        cents(order[key]),
      );
      expect(order[key]).toBe(summary[key]);
    }
    expect(
      order.split.map((s: { name: string; total: number }) => [s.name, s.total]).sort(),
    ).toEqual(summary.split.map((s: { name: string; total: number }) => [s.name, s.total]).sort());
    expect(sum(order.lines.map((l: { lineTotal: number }) => cents(l.lineTotal)))).toBe(
      cents(order.subtotal),
    );
    // The payee paid the shop; the other share is owed.
    const status = Object.fromEntries(
      order.split.map((s: { name: string; status: string }) => [s.name, s.status]),
    );
    expect(status).toEqual({ Ann: "confirmed", Ben: "unpaid" });

    const session = (await f.as.participant("GET", `/api/sessions/${f.sessionId}`)).json().session;
    expect(session.status).toBe("ended");
    const late = await f.as.participant("POST", `/api/carts/${f.cartId}/product`, {
      productId: products[0]!._id,
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe("CART_LOCKED");
    expect(late.json().message).toContain(order.number);
    const lineId = order.lines[0] && (await f.as.creator("GET", `/api/carts/${f.cartId}`)).json();
    const share = await f.as.creator(
      "PUT",
      `/api/carts/${f.cartId}/lines/${lineId.cart.products[0]._id}/shared-with`,
      { userIds: [] },
    );
    expect(share.json().code).toBe("CART_LOCKED");
    const policy = await f.as.creator("PUT", `/api/sessions/${f.sessionId}/split-policy`, {
      mode: "equal",
      weights: {},
      fees: "equal",
    });
    expect(policy.statusCode).toBe(409);

    const again = await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe("ALREADY_CHECKED_OUT");
  });

  it("numbers orders sequentially", async () => {
    const numbers: number[] = [];
    for (let i = 0; i < 2; i++) {
      const f = await filledSession();
      const { order } = (
        await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`)
      ).json();
      numbers.push(Number(order.number.slice(4)));
    }
    expect(numbers[1]).toBe(numbers[0]! + 1);
  });

  it("refuses an empty cart (EMPTY_CART) and an ended session, changing nothing", async () => {
    const f = await sessionWithEveryRole(t);
    const empty = await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`);
    expect(empty.statusCode).toBe(409);
    expect(empty.json().code).toBe("EMPTY_CART");
    const session = (await f.as.creator("GET", `/api/sessions/${f.sessionId}`)).json().session;
    expect(session.status).toBe("active");

    const g = await filledSession();
    expect((await g.as.creator("PUT", `/api/sessions/${g.sessionId}/end`)).statusCode).toBe(200);
    const ended = await g.as.creator("POST", `/api/sessions/${g.sessionId}/checkout`);
    expect(ended.statusCode).toBe(409);
    expect(ended.json().code).toBe("CONFLICT");
    expect((await g.as.creator("GET", "/api/orders")).json().orders).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ sessionId: g.sessionId })]),
    );
  });

  it("answers malformed and unknown ids with 400 and 404, never 500", async () => {
    const f = await filledSession();
    expect((await f.as.creator("POST", "/api/sessions/not-a-uuid/checkout")).statusCode).toBe(400);
    expect(
      (await f.as.creator("POST", `/api/sessions/${crypto.randomUUID()}/checkout`)).statusCode,
    ).toBe(404);
    expect((await f.as.creator("GET", "/api/orders/CRT-000001")).statusCode).toBe(400);
    expect((await f.as.creator("GET", `/api/orders/${crypto.randomUUID()}`)).statusCode).toBe(404);
    expect(
      (await f.as.creator("POST", `/api/orders/${crypto.randomUUID()}/confirm/nope`)).statusCode,
    ).toBe(400);
  });

  it("lets exactly one of two racing checkouts through", async () => {
    const f = await filledSession();
    const answers = await Promise.all([
      f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`),
      f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json().code).toBe("ALREADY_CHECKED_OUT");
    const mine = (await f.as.creator("GET", "/api/orders")).json().orders;
    expect(mine.filter((o: { sessionId: string }) => o.sessionId === f.sessionId)).toHaveLength(1);
  });

  it("50 adds racing a checkout: every acknowledged add is in the order, the rest get CART_LOCKED", async () => {
    const f = await sessionWithEveryRole(t);
    const product = products.find((p) => p.stock >= 60)!;
    const first = await f.as.participant("POST", `/api/carts/${f.cartId}/product`, {
      productId: product._id,
    });
    expect(first.statusCode).toBe(200);
    const add = (i: number) =>
      (i % 2 === 0 ? f.as.participant : f.as.creator)("POST", `/api/carts/${f.cartId}/product`, {
        productId: product._id,
      });
    // The checkout goes out in the middle of the adds.
    const before = Array.from({ length: 25 }, (_, i) => add(i));
    const checkout = f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`);
    const after = Array.from({ length: 25 }, (_, i) => add(i));
    const answers = await Promise.all([...before, ...after]);
    const placed = await checkout;
    expect(placed.statusCode, placed.body).toBe(201);
    const ok = answers.filter((a) => a.statusCode === 200).length;
    const locked = answers.filter((a) => a.statusCode === 409);
    expect(ok + locked.length).toBe(50);
    for (const a of locked) expect(a.json().code).toBe("CART_LOCKED");
    const { order } = placed.json();
    const inOrder = sum(order.lines.map((l: { quantity: number }) => l.quantity));
    expect(inOrder).toBe(1 + ok);
    // The order equals the cart at the moment of the lock, which is the cart now (locked since).
    const cart = (await f.as.creator("GET", `/api/carts/${f.cartId}`)).json().cart;
    expect(cart.status).toBe("completed");
    expect(
      cart.products.map((l: { addedBy: { _id: string }; quantity: number }) => [
        l.addedBy._id,
        l.quantity,
      ]),
    ).toEqual(
      order.lines.map((l: { addedBy: { _id: string }; quantity: number }) => [
        l.addedBy._id,
        l.quantity,
      ]),
    );
    expect(cents(order.subtotal)).toBe(cents(cart.totalPrice));
  });
});

describe("settling up", () => {
  it("member pays, payee confirms, balances go to zero; twice changes nothing", async () => {
    const f = await filledSession();
    const { order } = (await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`)).json();
    const ben = order.split.find((s: { name: string }) => s.name === "Ben");
    const url = `/api/orders/${order._id}`;

    // Before paying: Ben owes Ann his share, in both balances.
    const annBefore = (await f.as.creator("GET", "/api/balances")).json().balances;
    const toBen = annBefore.find(
      (b: { user: { _id: string } }) => b.user._id === f.people.participant.userId,
    );
    expect(toBen.amount).toBe(ben.total);
    expect(toBen.orders).toEqual([
      expect.objectContaining({ _id: order._id, number: order.number, amount: ben.total }),
    ]);
    expect(toBen.user.avatar).toMatch(/^http/);
    const benBefore = (await f.as.participant("GET", "/api/balances")).json().balances;
    expect(
      benBefore.find((b: { user: { _id: string } }) => b.user._id === f.people.creator.userId)
        .amount,
    ).toBe(-ben.total);

    // Confirming an unpaid share: 409; a sharer confirming: 403; the payee, who owes nobody here,
    // saying they paid: nothing to claim, nothing changes.
    const early = await f.as.creator("POST", `${url}/confirm/${f.people.participant.userId}`);
    expect(early.statusCode).toBe(409);
    expect(
      (await f.as.participant("POST", `${url}/confirm/${f.people.participant.userId}`)).statusCode,
    ).toBe(403);
    // The checkout mails are jobs of the queue; once they are done, only paying changes a share.
    await t.app.idle();
    const payeePaid = await f.as.creator("POST", `${url}/paid`);
    expect(payeePaid.statusCode).toBe(200);
    expect(payeePaid.json().order.split).toEqual(
      (await f.as.creator("GET", url)).json().order.split,
    );
    expect(
      (await f.as.creator("POST", `${url}/confirm/${f.people.viewer.userId}`)).statusCode,
    ).toBe(404);

    const paid = await f.as.participant("POST", `${url}/paid`);
    expect(paid.statusCode).toBe(200);
    const paidShare = paid.json().order.split.find((s: { name: string }) => s.name === "Ben");
    expect(paidShare.status).toBe("paid");
    expect(paidShare.paidAt).toBeTruthy();
    t.clock.advance(60_000);
    const twice = await f.as.participant("POST", `${url}/paid`);
    expect(twice.statusCode).toBe(200);
    expect(twice.json().order.split.find((s: { name: string }) => s.name === "Ben")).toEqual(
      paidShare,
    );
    // Paid but not confirmed: still owed.
    expect((await f.as.participant("GET", "/api/balances")).json().balances).toHaveLength(1);

    const confirmed = await f.as.creator("POST", `${url}/confirm/${f.people.participant.userId}`);
    expect(confirmed.statusCode).toBe(200);
    const done = confirmed.json().order.split.find((s: { name: string }) => s.name === "Ben");
    expect(done.status).toBe("confirmed");
    expect(done.confirmedAt).toBeTruthy();
    // No body is a confirmed transfer; the payee's own share was settled at the shop.
    expect(done.settledAs).toBe("transfer");
    expect(done.accountDeleted).toBe(false);
    expect(
      confirmed.json().order.split.find((s: { name: string }) => s.name === "Ann").settledAs,
    ).toBeNull();
    const again = await f.as.creator("POST", `${url}/confirm/${f.people.participant.userId}`);
    expect(again.statusCode).toBe(200);
    expect((await f.as.participant("POST", `${url}/paid`)).json().order.split).toEqual(
      confirmed.json().order.split,
    );
    expect((await f.as.creator("GET", "/api/balances")).json().balances).toEqual([]);
    expect((await f.as.participant("GET", "/api/balances")).json().balances).toEqual([]);
    // The order itself never changed, only its settlement: nothing of Ben's part is open now.
    const { order: after } = (await f.as.participant("GET", url)).json();
    const settled = { split: undefined, parts: undefined };
    expect({ ...after, ...settled }).toEqual({ ...order, ...settled });
    expect(order.parts).toEqual([expect.objectContaining({ open: order.parts[0].amount })]);
    expect(after.parts).toEqual([{ ...order.parts[0], open: 0 }]);
  });

  it("the payee settles an unpaid share in cash or writes it off; a transfer still needs it paid", async () => {
    const f = await filledSession();
    const { order } = (await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`)).json();
    // The checkout mails are jobs of the queue; once they are done, only settling changes a share.
    await t.app.idle();
    const benId = f.people.participant.userId;
    const url = `/api/orders/${order._id}/confirm/${benId}`;
    const benShare = async () =>
      (await f.as.creator("GET", `/api/orders/${order._id}`))
        .json()
        .order.split.find((s: { userId: string }) => s.userId === benId);
    const unpaid = await benShare();
    expect(unpaid).toMatchObject({ status: "unpaid", settledAs: null });

    // Refusals change nothing: a transfer on an unpaid share (409), a bad `how` or key (400),
    // the sharer settling their own share (403), anyone without a part in the order (404).
    const early = await f.as.creator("POST", url, { how: "transfer" });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toMatch(/in cash or write it off/);
    for (const body of [{ how: "gift" }, { how: null }, { how: "cash", amount: 1 }, []]) {
      const res = await f.as.creator("POST", url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe("VALIDATION_ERROR");
    }
    for (const how of ["cash", "written_off"] as const) {
      const own = await f.as.participant("POST", url, { how });
      expect(own.statusCode).toBe(403);
      expect(own.json().message).toBe("Only those who paid the shop confirm payments to them.");
      for (const role of ["viewer", "pending", "stranger"] as const) {
        expect((await f.as[role]("POST", url, { how })).statusCode, role).toBe(404);
      }
    }
    expect(await benShare()).toEqual(unpaid);
    expect((await f.as.creator("GET", "/api/balances")).json().balances).toHaveLength(1);

    const cash = await f.as.creator("POST", url, { how: "cash" });
    expect(cash.statusCode, cash.body).toBe(200);
    const settled = cash.json().order.split.find((s: { userId: string }) => s.userId === benId);
    expect(settled).toMatchObject({
      status: "confirmed",
      settledAs: "cash",
      paidAt: null,
      confirmedAt: expect.any(String),
    });
    // Settled is settled: another way later changes nothing.
    const again = await f.as.creator("POST", url, { how: "written_off" });
    expect(again.json().order.split).toEqual(cash.json().order.split);
    for (const role of ["creator", "participant"] as const) {
      expect((await f.as[role]("GET", "/api/balances")).json().balances, role).toEqual([]);
    }
    const log = (await f.as.creator("GET", `/api/sessions/${f.sessionId}/activity`)).json().events;
    const confirms = log.filter((e: { type: string }) => e.type === "order.confirmed");
    expect(confirms).toEqual([
      expect.objectContaining({
        actor: { _id: f.people.creator.userId, name: "Ann" },
        number: order.number,
        member: "Ben",
        how: "cash",
        amount: settled.total,
      }),
    ]);
    const pdf = await f.as.participant("GET", `/api/orders/${order._id}/receipt.pdf`);
    const text = (await pdfText(new Uint8Array(pdf.rawPayload))).replace(/\s+/g, " ");
    expect(text).toMatch(
      new RegExp(`Ben .*${money(settled.total).replace("$", "\\$")} Paid in cash`),
    );

    // A paid share may be written off too.
    const g = await filledSession();
    const placed = (await g.as.creator("POST", `/api/sessions/${g.sessionId}/checkout`)).json();
    await g.as.participant("POST", `/api/orders/${placed.order._id}/paid`);
    const off = await g.as.creator(
      "POST",
      `/api/orders/${placed.order._id}/confirm/${g.people.participant.userId}`,
      { how: "written_off" },
    );
    expect(off.json().order.split.find((s: { name: string }) => s.name === "Ben")).toMatchObject({
      status: "confirmed",
      settledAs: "written_off",
      paidAt: expect.any(String),
    });
  });

  it("shows orders to their payee and sharers only; another group's id is 404", async () => {
    const f = await filledSession();
    const { order } = (await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`)).json();
    const url = `/api/orders/${order._id}`;
    expect((await f.as.creator("GET", url)).statusCode).toBe(200);
    expect((await f.as.participant("GET", url)).statusCode).toBe(200);
    for (const role of ["viewer", "pending", "stranger"] as const) {
      expect((await f.as[role]("GET", url)).statusCode, role).toBe(404);
      expect((await f.as[role]("GET", `${url}/receipt.pdf`)).statusCode, role).toBe(404);
      expect((await f.as[role]("POST", `${url}/paid`)).statusCode, role).toBe(404);
      const listed = (await f.as[role]("GET", "/api/orders")).json().orders;
      expect(listed.map((o: { _id: string }) => o._id)).not.toContain(order._id);
    }
    const listed = (await f.as.participant("GET", "/api/orders")).json().orders;
    expect(listed[0]._id).toBe(order._id);
    // Another group's creator, as payee of their own order, cannot touch this one.
    const g = await filledSession();
    expect((await g.as.creator("GET", url)).statusCode).toBe(404);
    expect(
      (await g.as.creator("POST", `${url}/confirm/${f.people.participant.userId}`)).statusCode,
    ).toBe(404);
  });

  it("tells the order's people live: order.placed, then order.updated", async () => {
    const f = await filledSession();
    const base = await listenForLive(t);
    const ben = await signedIn(base, f.people.participant.token);
    const sam = await signedIn(base, f.people.stranger.token);
    const { order } = (await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`)).json();
    const placed = await ben.next((m) => m.type === "order.placed");
    expect(placed).toMatchObject({ sessionId: f.sessionId, orderId: order._id });
    await f.as.participant("POST", `/api/orders/${order._id}/paid`);
    const ann = await signedIn(base, f.people.creator.token);
    await f.as.participant("POST", `/api/orders/${order._id}/paid`); // no change: no event
    await f.as.creator("POST", `/api/orders/${order._id}/confirm/${f.people.participant.userId}`);
    expect(await ann.next((m) => m.type === "order.updated")).toMatchObject({ orderId: order._id });
    expect(sam.messages.filter((m) => m.type.startsWith("order."))).toEqual([]);
    for (const peer of [ben, sam, ann]) peer.socket.close();
  });
});

describe("receipt and mails", () => {
  it("the receipt is a PDF with the number, every line and every share with its status", async () => {
    const f = await filledSession();
    const { order } = (await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`)).json();
    await f.as.participant("POST", `/api/orders/${order._id}/paid`);
    const res = await f.as.participant("GET", `/api/orders/${order._id}/receipt.pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toContain(`cartner-${order.number}.pdf`);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    const text = (await pdfText(new Uint8Array(res.rawPayload))).replace(/\s+/g, " ");
    expect(text).toContain(order.number);
    expect(text).toContain("Weekend groceries");
    for (const line of order.lines) expect(text).toContain(line.name);
    const ann = order.split.find((s: { name: string }) => s.name === "Ann");
    expect(text).toContain(`Ann (payee) ${money(ann.subtotal)}`);
    expect(text).toMatch(new RegExp(`${money(ann.total).replace("$", "\\$")} Confirmed`));
    const ben = order.split.find((s: { name: string }) => s.name === "Ben");
    expect(text).toMatch(new RegExp(`Ben .*${money(ben.total).replace("$", "\\$")} Paid`));
    expect(text).toContain(money(order.total));
  });

  it("mails every member with a share; a failed mail never undoes the order and can be resent", async () => {
    const f = await filledSession();
    failingTo.add(f.people.participant.email);
    const res = await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`);
    expect(res.statusCode).toBe(201);
    const { order } = res.json();
    const url = `/api/orders/${order._id}`;
    // The mails are jobs of the queue: app.idle() waits until none is due or running.
    await t.app.idle();
    const settled = (await f.as.creator("GET", url)).json().order;
    const mail = Object.fromEntries(
      settled.split.map((s: { name: string; mail: string }) => [s.name, s.mail]),
    );
    expect(mail).toEqual({ Ann: "sent", Ben: "failed" });
    const annMails = await t.database.db
      .select()
      .from(devMails)
      .where(eq(devMails.recipient, f.people.creator.email));
    const annMail = annMails.find((m) => m.subject.includes(order.number));
    expect(annMail).toBeDefined();
    // Ann placed the order: her mail says so in the second person.
    expect(annMail?.text).toContain(`You checked out "Weekend groceries": order ${order.number}.`);
    expect(annMail?.text).not.toContain("Ann checked out");
    expect(annMail?.html).toContain("You checked out “Weekend groceries”");
    expect(
      (await f.as.participant("GET", `/api/sessions/${f.sessionId}`)).json().session.status,
    ).toBe("ended");

    // Only the payee resends; it goes to the failed ones. The route takes no body: anything in
    // one (a 5,000-deep object too) is a 400 that sends nothing.
    expect((await f.as.participant("POST", `${url}/mail`)).statusCode).toBe(403);
    failingTo.delete(f.people.participant.email);
    const deep = `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`;
    for (const payload of [{ resend: true }, deep]) {
      const refused = await t.app.inject({
        method: "POST",
        url: `${url}/mail`,
        headers: {
          authorization: `Bearer ${f.people.creator.token}`,
          "content-type": "application/json",
        },
        payload,
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(Object.keys(refused.json().fields)).toEqual([
        typeof payload === "string" ? "a" : "resend",
      ]);
    }
    await t.app.idle();
    expect(
      (await f.as.creator("GET", url)).json().order.split.map((s: { mail: string }) => s.mail),
    ).toEqual(["sent", "failed"]);
    expect((await f.as.creator("POST", `${url}/mail`, {})).statusCode).toBe(200);
    await t.app.idle();
    expect(
      (await f.as.creator("GET", url)).json().order.split.map((s: { mail: string }) => s.mail),
    ).toEqual(["sent", "sent"]);
    const benMails = await t.database.db
      .select()
      .from(devMails)
      .where(eq(devMails.recipient, f.people.participant.email));
    const orderMail = benMails.find((m) => m.subject.includes(order.number));
    const benShare = order.split.find((s: { name: string }) => s.name === "Ben");
    expect(orderMail?.text).toContain(`Your share: ${money(benShare.total)}`);
    expect(orderMail?.text).toContain(`/orders/${order._id}`);
    expect(orderMail?.text).toContain("Pay Ann your share");
    expect(orderMail?.text).toContain(
      `Ann checked out "Weekend groceries": order ${order.number}.`,
    );
  });
});
