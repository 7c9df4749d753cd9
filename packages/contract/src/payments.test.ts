import { describe, expect, it } from "vitest";
import { PaymentDetailsBodySchema, ibanProblem, normaliseIban } from "./payments.ts";

const parse = (body: unknown) => PaymentDetailsBodySchema.safeParse(body);
const messageOf = (body: unknown, field: string) => {
  const result = parse(body);
  expect(result.success).toBe(false);
  return result.error!.issues.find((issue) => issue.path[0] === field)?.message;
};

describe("payment details", () => {
  it("stores an IBAN without spaces, upper case", () => {
    const result = parse({ iban: " de89 3704 0044 0532 0130 00 " });
    expect(result.data).toEqual({ iban: "DE89370400440532013000" });
    expect(normaliseIban("nl91 abna 0417 1643 00")).toBe("NL91ABNA0417164300");
  });

  it("refuses a wrong checksum, a wrong length and an unknown country, each in its own words", () => {
    expect(messageOf({ iban: "DE88370400440532013000" }, "iban")).toMatch(/check digits/);
    expect(messageOf({ iban: "DE8937040044053201300" }, "iban")).toMatch(/another length/);
    expect(messageOf({ iban: "XX89370400440532013000" }, "iban")).toMatch(/country code/);
    expect(ibanProblem("GB82WEST12345698765432")).toBeNull();
  });

  it("takes only https links, without credentials", () => {
    expect(parse({ payLink: "https://paypal.me/ann" }).data).toEqual({
      payLink: "https://paypal.me/ann",
    });
    for (const link of [
      "http://paypal.me/ann",
      "javascript:alert(1)",
      "https://user:pw@paypal.me/ann",
      "paypal.me/ann",
    ]) {
      expect(messageOf({ payLink: link }, "payLink")).toMatch(/https:\/\//);
    }
  });

  it("clears a field sent empty or null, and bounds every size", () => {
    expect(parse({ iban: "", accountName: null, note: "  " }).data).toEqual({
      iban: null,
      accountName: null,
      note: null,
    });
    expect(messageOf({ accountName: "a".repeat(71) }, "accountName")).toMatch(/70/);
    expect(messageOf({ note: "a".repeat(301) }, "note")).toMatch(/300/);
    expect(messageOf({ payLink: `https://x.example/${"a".repeat(300)}` }, "payLink")).toMatch(
      /300/,
    );
    expect(parse({ bank: "x" }).success).toBe(false);
  });
});
