/**
 * What a member who owes sees to pay the payee (PGlite and PostgreSQL): the payee's details,
 * the amount, the order number, and the EPC QR payload when the deployment's currency is EUR.
 * Nobody else sees the payee's details.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devMails } from "../../src/db/schema.ts";
import { createTestApp, filledSession, PASSWORD, type TestApp } from "../helpers.ts";
import { pdfText } from "../pdf-text.ts";

let eur: TestApp;
let usd: TestApp;
beforeAll(async () => {
  [eur, usd] = await Promise.all([createTestApp({ env: { CURRENCY: "EUR" } }), createTestApp()]);
});
afterAll(async () => Promise.all([eur.close(), usd.close()]));

const IBAN = "DE89370400440532013000";

/** Ann (payee) saved her details and checked out; Ben owes his share. */
async function placedOrder(
  t: TestApp,
  details: object = { iban: IBAN, accountName: "Ann Example" },
) {
  const f = await filledSession(t);
  const saved = await f.as.creator("PUT", "/api/users/me/payment-details", details);
  expect(saved.statusCode, saved.body).toBe(200);
  const placed = await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`);
  expect(placed.statusCode, placed.body).toBe(201);
  const order = placed.json().order as {
    _id: string;
    number: string;
    split: { userId: string; total: number }[];
  };
  const benShare = order.split.find((s) => s.userId === f.people.participant.userId)!;
  return { ...f, order, benShare, url: `/api/orders/${order._id}/pay-info` };
}

describe("pay info", () => {
  it("gives a member who owes the payee's details, the amount, the order number and the EPC payload in EUR", async () => {
    const f = await placedOrder(eur);
    const res = await f.as.participant("GET", f.url);
    expect(res.statusCode, res.body).toBe(200);
    const amount = f.benShare.total.toFixed(2);
    expect(res.json()).toEqual({
      payee: { _id: f.people.creator.userId, name: "Ann" },
      details: { iban: IBAN, accountName: "Ann Example", payLink: null, note: null },
      amount: f.benShare.total,
      reference: f.order.number,
      epcQr: [
        "BCD",
        "002",
        "1",
        "SCT",
        "",
        "Ann Example",
        IBAN,
        `EUR${amount}`,
        "",
        "",
        f.order.number,
      ].join("\n"),
    });
    expect(f.order.number).toMatch(/^CRT-\d{6}$/);
  });

  it("names the payee in the code when they gave no account name", async () => {
    const f = await placedOrder(eur, { iban: IBAN });
    const { epcQr } = (await f.as.participant("GET", f.url)).json();
    expect(epcQr.split("\n")[5]).toBe("Ann");
  });

  it("has no EPC payload in another currency, or without an IBAN", async () => {
    const inUsd = await placedOrder(usd);
    const res = (await inUsd.as.participant("GET", inUsd.url)).json();
    expect(res.details.iban).toBe(IBAN);
    expect(res.epcQr).toBeNull();
    const noIban = await placedOrder(eur, { payLink: "https://paypal.me/ann" });
    const info = (await noIban.as.participant("GET", noIban.url)).json();
    expect(info.epcQr).toBeNull();
    expect(info.details).toEqual({
      iban: null,
      accountName: null,
      payLink: "https://paypal.me/ann",
      note: null,
    });
  });

  it("shows the current details, and nothing left to pay once the payee settled the share", async () => {
    const f = await placedOrder(eur);
    await f.as.creator("PUT", "/api/users/me/payment-details", { note: "Cash only now" });
    expect((await f.as.participant("GET", f.url)).json()).toMatchObject({
      details: { iban: null, note: "Cash only now" },
      epcQr: null,
    });
    const ben = f.people.participant.userId;
    const settled = await f.as.creator("POST", `/api/orders/${f.order._id}/confirm/${ben}`, {
      how: "cash",
    });
    expect(settled.statusCode, settled.body).toBe(200);
    expect((await f.as.participant("GET", f.url)).json()).toMatchObject({ amount: 0, epcQr: null });
  });

  it("withholds the payee's details from a member whose share is settled", async () => {
    const f = await placedOrder(eur, {
      iban: IBAN,
      accountName: "Ann Example",
      payLink: "https://paypal.me/ann",
      note: "Thanks!",
    });
    expect((await f.as.participant("GET", f.url)).json().details.iban).toBe(IBAN);
    const paid = await f.as.participant("POST", `/api/orders/${f.order._id}/paid`);
    expect(paid.statusCode, paid.body).toBe(200);
    const ben = f.people.participant.userId;
    const settled = await f.as.creator("POST", `/api/orders/${f.order._id}/confirm/${ben}`, {
      how: "transfer",
    });
    expect(settled.statusCode, settled.body).toBe(200);
    const res = await f.as.participant("GET", f.url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      payee: { _id: f.people.creator.userId, name: "Ann" },
      details: { iban: null, accountName: null, payLink: null, note: null },
      amount: 0,
      reference: f.order.number,
      epcQr: null,
    });
    expect(res.body).not.toContain(IBAN);
    expect(res.body).not.toContain("paypal.me");
  });

  it("is refused to the payee (403), strangers and members without a share (404), and malformed ids (400)", async () => {
    const f = await placedOrder(eur);
    const payee = await f.as.creator("GET", f.url);
    expect(payee.statusCode).toBe(403);
    expect(payee.json().message).toMatch(/payee/);
    for (const role of ["stranger", "viewer", "pending"] as const) {
      const res = await f.as[role]("GET", f.url);
      expect(res.statusCode, role).toBe(404);
      expect(res.body).not.toContain(IBAN);
    }
    expect((await f.as.participant("GET", "/api/orders/not-a-uuid/pay-info")).statusCode).toBe(400);
    const unknown = await f.as.participant(
      "GET",
      "/api/orders/00000000-0000-4000-8000-000000000000/pay-info",
    );
    expect(unknown.statusCode).toBe(404);
  });

  it("hides a deleted payee's details (what she was owed is written off)", async () => {
    const f = await placedOrder(eur);
    const gone = await f.as.creator("DELETE", "/api/users/me", {
      password: PASSWORD,
      acknowledgeUnsettled: true,
    });
    expect(gone.statusCode, gone.body).toBe(204);
    const res = await f.as.participant("GET", f.url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      details: { iban: null, accountName: null, payLink: null, note: null },
      amount: 0,
      epcQr: null,
    });
  });
});

describe("the deployment's currency", () => {
  it("is what the config, the checkout mail and the receipt write every amount in", async () => {
    expect((await eur.app.inject({ method: "GET", url: "/api/config" })).json()).toEqual({
      currency: "EUR",
    });
    const f = await placedOrder(eur);
    const euro = new Intl.NumberFormat("en-US", { style: "currency", currency: "EUR" });
    await eur.app.idle();
    const mails = await eur.database.db
      .select()
      .from(devMails)
      .where(eq(devMails.recipient, f.people.participant.email));
    const mail = mails.find((m) => m.subject.includes(f.order.number));
    expect(mail?.text).toContain(`Your share: ${euro.format(f.benShare.total)}`);
    expect(mail?.text).not.toContain("$");
    const receipt = await f.as.participant("GET", `/api/orders/${f.order._id}/receipt.pdf`);
    const text = (await pdfText(new Uint8Array(receipt.rawPayload))).replace(/\s+/g, " ");
    expect(text).toContain(euro.format(f.benShare.total));
    expect(text).not.toContain("$");
  });
});
