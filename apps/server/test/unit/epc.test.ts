import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { epcPayload } from "../../src/features/payments/epc.ts";

const transfer = {
  name: "Ann Example",
  iban: "DE89370400440532013000",
  amountCents: 1240,
  reference: "CRT-000042",
};

describe("the EPC QR payload", () => {
  it("is the EPC069-12 version 002 SEPA credit transfer, line for line", () => {
    expect(epcPayload(transfer)).toBe(
      [
        "BCD",
        "002",
        "1",
        "SCT",
        "",
        "Ann Example",
        "DE89370400440532013000",
        "EUR12.40",
        "",
        "",
        "CRT-000042",
      ].join("\n"),
    );
  });

  it("writes amounts with two decimals and a dot, from one cent to the format's largest", () => {
    const amountOf = (amountCents: number) =>
      epcPayload({ ...transfer, amountCents })!.split("\n")[7];
    expect(amountOf(1)).toBe("EUR0.01");
    expect(amountOf(100)).toBe("EUR1.00");
    expect(amountOf(123456)).toBe("EUR1234.56");
    expect(amountOf(99_999_999_999)).toBe("EUR999999999.99");
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999_999_999 }), (cents) => {
        const amount = amountOf(cents)!;
        expect(amount).toMatch(/^EUR\d{1,9}\.\d{2}$/);
        expect(Math.round(Number(amount.slice(3)) * 100)).toBe(cents);
      }),
    );
  });

  it("gives no code for nothing to pay, too much, or an IBAN outside SEPA", () => {
    expect(epcPayload({ ...transfer, amountCents: 0 })).toBeNull();
    expect(epcPayload({ ...transfer, amountCents: 100_000_000_000 })).toBeNull();
    expect(epcPayload({ ...transfer, amountCents: 12.5 })).toBeNull();
    // Brazil has IBANs but is not in SEPA: a SEPA transfer cannot reach it.
    expect(epcPayload({ ...transfer, iban: "BR1800360305000010009795493C1" })).toBeNull();
    expect(epcPayload({ ...transfer, name: "  " })).toBeNull();
  });

  it("keeps the name to 70 characters and the reference to 140, each one line", () => {
    const named = epcPayload({ ...transfer, name: `${"Ä".repeat(69)}😀tail` })!.split("\n");
    expect(named).toHaveLength(11);
    expect([...named[5]!]).toHaveLength(70);
    expect(named[5]!.endsWith("😀")).toBe(true);
    const referenced = epcPayload({ ...transfer, reference: `a\nb${"x".repeat(200)}` })!;
    const lines = referenced.split("\n");
    expect(lines).toHaveLength(11);
    expect(lines[10]).toHaveLength(140);
    expect(lines[10]!.startsWith("a b")).toBe(true);
  });

  it("stays within the format's 331 bytes, shortening a name of long characters", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", minLength: 1, maxLength: 90 }),
        fc.string({ minLength: 1, maxLength: 160 }),
        (name, reference) => {
          const payload = epcPayload({ ...transfer, name: `N${name}`, reference });
          expect(payload).not.toBeNull();
          expect(new TextEncoder().encode(payload!).length).toBeLessThanOrEqual(331);
          expect(payload!.split("\n")).toHaveLength(11);
        },
      ),
    );
    const wide = epcPayload({ ...transfer, name: "😀".repeat(70), reference: "r".repeat(140) })!;
    expect(new TextEncoder().encode(wide).length).toBeLessThanOrEqual(331);
    expect(wide.split("\n")[5]).toMatch(/^(😀)+$/);
  });
});
