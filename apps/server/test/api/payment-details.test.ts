/**
 * Payment details through the API (PGlite and PostgreSQL): each person's own, validated and
 * normalised, nothing stored on bad input, in the account export, gone with the account.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentDetails } from "../../src/db/schema.ts";
import { client, createTestApp, PASSWORD, signUp, type TestApp } from "../helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const URL = "/api/users/me/payment-details";
const EMPTY = { iban: null, accountName: null, payLink: null, note: null };

async function person(name = "Ann") {
  const p = await signUp(t, name);
  return { ...p, as: client(t, p.token) };
}

describe("payment details", () => {
  it("are empty until saved, then stored normalised and read back", async () => {
    const ann = await person();
    const first = await ann.as("GET", URL);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ details: EMPTY });

    const saved = await ann.as("PUT", URL, {
      iban: "de89 3704 0044 0532 0130 00",
      accountName: "  Ann Example ",
      payLink: "https://paypal.me/annexample",
      note: "Cash is fine too.\nNo cheques.",
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const details = {
      iban: "DE89370400440532013000",
      accountName: "Ann Example",
      payLink: "https://paypal.me/annexample",
      note: "Cash is fine too.\nNo cheques.",
    };
    expect(saved.json()).toEqual({ details });
    expect((await ann.as("GET", URL)).json()).toEqual({ details });
  });

  it("are replaced as a whole: a field left out or empty is cleared, and all empty keeps no row", async () => {
    const ann = await person();
    await ann.as("PUT", URL, { iban: "NL91ABNA0417164300", note: "Thanks!" });
    const changed = await ann.as("PUT", URL, { iban: "", payLink: "https://monzo.me/ann" });
    expect(changed.json()).toEqual({
      details: { ...EMPTY, payLink: "https://monzo.me/ann" },
    });
    expect((await ann.as("PUT", URL, {})).json()).toEqual({ details: EMPTY });
    const rows = await t.database.db
      .select()
      .from(paymentDetails)
      .where(eq(paymentDetails.userId, ann.userId));
    expect(rows).toEqual([]);
  });

  it("are each person's own", async () => {
    const ann = await person();
    const ben = await person("Ben");
    await ann.as("PUT", URL, { iban: "NL91ABNA0417164300" });
    expect((await ben.as("GET", URL)).json()).toEqual({ details: EMPTY });
  });

  it.each([
    ["a wrong checksum", { iban: "DE88370400440532013000" }, "iban", /check digits/],
    ["a wrong length", { iban: "DE89 3704 0044 0532 0130 0" }, "iban", /another length/],
    ["no country", { iban: "1234567890" }, "iban", /country code/],
    ["an http link", { payLink: "http://paypal.me/ann" }, "payLink", /https:\/\//],
    ["a script link", { payLink: "javascript:alert(1)" }, "payLink", /https:\/\//],
    ["a long name", { accountName: "A".repeat(71) }, "accountName", /70/],
    ["a long note", { note: "n".repeat(301) }, "note", /300/],
    ["a name with line breaks", { accountName: "Ann\nBen" }, "accountName", /single line/],
    ["a number for text", { note: 42 }, "note", /./],
  ])(
    "refuse %s with 400 naming the field, and store nothing",
    async (_what, body, field, message) => {
      const ann = await person();
      const kept = { iban: "NL91ABNA0417164300" };
      await ann.as("PUT", URL, kept);
      const res = await ann.as("PUT", URL, { accountName: "Ann", ...body });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual([field]);
      expect(res.json().fields[field]).toMatch(message);
      expect((await ann.as("GET", URL)).json()).toEqual({ details: { ...EMPTY, ...kept } });
    },
  );

  it("refuse unknown fields and need a signed-in user", async () => {
    const ann = await person();
    const res = await ann.as("PUT", URL, { bic: "DEUTDEFF" });
    expect(res.statusCode).toBe(400);
    expect((await t.app.inject({ method: "GET", url: URL })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: "PUT", url: URL, payload: { note: "x" } })).statusCode,
    ).toBe(401);
  });

  it("are in the account export, and deleted with the account", async () => {
    const ann = await person();
    await ann.as("PUT", URL, { iban: "NL91ABNA0417164300", accountName: "Ann Example" });
    const exported = (await ann.as("GET", "/api/users/me/export")).json();
    expect(exported.paymentDetails).toMatchObject({
      iban: "NL91ABNA0417164300",
      accountName: "Ann Example",
      payLink: null,
      note: null,
    });
    const gone = await ann.as("DELETE", "/api/users/me", { password: PASSWORD });
    expect(gone.statusCode, gone.body).toBe(204);
    const rows = await t.database.db
      .select()
      .from(paymentDetails)
      .where(eq(paymentDetails.userId, ann.userId));
    expect(rows).toEqual([]);
  });
});

describe("the deployment's currency", () => {
  it("is public, USD unless CURRENCY says otherwise", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/config" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ currency: "USD" });
  });
});
