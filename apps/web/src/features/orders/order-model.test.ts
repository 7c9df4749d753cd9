import { describe, expect, it } from "vitest";
import { testUser } from "../../test/render-app.tsx";
import { makeOrder, withShareStatus } from "../../test/test-orders.ts";
import { ben, cleo } from "../../test/test-sessions.ts";
import {
  canSettle,
  orderStandingSentence,
  owedByPayersWithoutShare,
  owesOnlyCredits,
  parseAmount,
} from "./order-model.ts";

describe("parseAmount", () => {
  it("reads an amount with a dot or a comma, with or without a currency sign", () => {
    expect(parseAmount("2.49")).toBe(2.49);
    expect(parseAmount(" 2,49 ")).toBe(2.49);
    expect(parseAmount("$2.49")).toBe(2.49);
    expect(parseAmount("€1.50")).toBe(1.5);
    expect(parseAmount("€ 1,50")).toBe(1.5);
    expect(parseAmount("1,50 €")).toBe(1.5);
    expect(parseAmount("£3")).toBe(3);
  });

  it("refuses what is not one amount in currency units", () => {
    for (const text of ["", "€", "abc", "1.505", "-1", "1.2.3", "€€1", "1 €€", "EUR 1.50"]) {
      expect(parseAmount(text)).toBeNull();
    }
  });
});

describe("orderStandingSentence", () => {
  const ada = testUser._id;

  it("tells the member to pay, the payee whom she waits on, and both when all is settled", () => {
    const order = makeOrder();
    expect(orderStandingSentence(order, ben._id)).toBe(
      "Pay Ada Lovelace your share, then say so here.",
    );
    expect(orderStandingSentence(order, ada)).toBe("Waiting on 1 of 1 share.");
    const settled = withShareStatus(order, ben._id, "confirmed");
    expect(orderStandingSentence(settled, ben._id)).toBe("Everyone is settled up.");
    expect(orderStandingSentence(settled, ada)).toBe("Everyone is settled up.");
  });

  it("is not settled while a payer owes a credit back or the payee owes another payer", () => {
    // Ben paid his share, then it was adjusted down: Ada owes him the difference back.
    const credit = {
      ...withShareStatus(makeOrder(), ben._id, "confirmed"),
      parts: [
        {
          debtor: ben._id,
          payer: ada,
          amount: 10,
          open: 0,
          credit: 4.84,
          claimed: 0,
          claimedBack: 0,
        },
      ],
    };
    expect(orderStandingSentence(credit, ada)).toBe(
      "You still owe a part of this order: see who paid the shop below.",
    );
    expect(orderStandingSentence(credit, ben._id)).toBe("Waiting on the others to settle up.");
    // Ben paid half the shop: Ada's own share owes him his part of it.
    const twoPayers = {
      ...withShareStatus(makeOrder(), ben._id, "confirmed"),
      parts: [
        {
          debtor: ada,
          payer: ben._id,
          amount: 14.83,
          open: 14.83,
          credit: 0,
          claimed: 0,
          claimedBack: 0,
        },
      ],
    };
    expect(orderStandingSentence(twoPayers, ada)).toBe(
      "You still owe a part of this order: see who paid the shop below.",
    );
    expect(orderStandingSentence(twoPayers, ben._id)).toBe("Waiting on the others to settle up.");
  });
});

describe("owesOnlyCredits", () => {
  const part = (debtor: string, payer: string, open: number, credit: number) => ({
    debtor,
    payer,
    amount: 10,
    open,
    credit,
    claimed: 0,
    claimedBack: 0,
  });
  it("is a payer who owes nothing of their share but a credit back to another payer", () => {
    const order = makeOrder({ parts: [part(ben._id, testUser._id, 0, 4.5)] });
    expect(owesOnlyCredits(order, testUser._id)).toBe(true);
    expect(owesOnlyCredits(order, ben._id)).toBe(false);
  });
  it("is not one who still owes a part of their own share", () => {
    const order = makeOrder({
      parts: [part(ben._id, testUser._id, 0, 4.5), part(testUser._id, "u-cat", 3, 0)],
    });
    expect(owesOnlyCredits(order, testUser._id)).toBe(false);
  });
});

describe("owedByPayersWithoutShare", () => {
  const ada = { _id: testUser._id, name: testUser.name };
  // Ada, the payee, has no share; she, Ben and Cleo paid the shop. Ben and Cleo paid her beyond
  // their lowered parts: she owes each of them back.
  const benShare = makeOrder().split.find((s) => s.userId === ben._id)!;
  const order = makeOrder({
    split: [benShare, { ...benShare, userId: cleo._id, name: cleo.name }],
    payers: [
      { user: ada, amount: 4 },
      { user: { _id: ben._id, name: ben.name }, amount: 3 },
      { user: { _id: cleo._id, name: cleo.name }, amount: 3 },
    ],
    parts: [
      {
        debtor: ben._id,
        payer: ada._id,
        amount: 4,
        open: 0,
        credit: 2.42,
        claimed: 0,
        claimedBack: 0,
      },
      {
        debtor: cleo._id,
        payer: ada._id,
        amount: 1,
        open: 0,
        credit: 0.5,
        claimed: 0,
        claimedBack: 0,
      },
    ],
  });

  it("is what each payer without a share owes the reader back, of all they owe on the order", () => {
    expect(owedByPayersWithoutShare(order, ben._id)).toEqual([
      { userId: ada._id, name: ada.name, owed: 242, claimed: 0, inAll: 292, back: true },
    ]);
  });

  it("counts what they say they paid back as claimed", () => {
    const claimed = {
      ...order,
      parts: order.parts.map((p) => (p.debtor === ben._id ? { ...p, claimedBack: 2.42 } : p)),
    };
    expect(owedByPayersWithoutShare(claimed, ben._id)).toEqual([
      { userId: ada._id, name: ada.name, owed: 242, claimed: 242, inAll: 292, back: true },
    ]);
    expect(owedByPayersWithoutShare(claimed, cleo._id)[0]!.claimed).toBe(0);
  });

  it("leaves out the reader, whoever has a share, and whoever owes the reader nothing", () => {
    expect(owedByPayersWithoutShare(order, ada._id)).toEqual([]);
    expect(owedByPayersWithoutShare(makeOrder(), ben._id)).toEqual([]);
    expect(owedByPayersWithoutShare(order, undefined)).toEqual([]);
  });
});

describe("canSettle", () => {
  const ada = { _id: testUser._id, name: testUser.name };
  const benPerson = { _id: ben._id, name: ben.name };
  it("is those who paid the shop, the payee among them", () => {
    const order = makeOrder({
      payers: [
        { user: ada, amount: 30 },
        { user: benPerson, amount: 14.49 },
      ],
    });
    expect(canSettle(order, ada._id)).toBe(true);
    expect(canSettle(order, ben._id)).toBe(true);
  });
  it("is not a member who paid nothing, nor a payee who named others and not themself", () => {
    expect(canSettle(makeOrder(), ben._id)).toBe(false);
    const order = makeOrder({ payers: [{ user: benPerson, amount: 44.49 }] });
    expect(canSettle(order, ada._id)).toBe(false);
    expect(canSettle(order, "u-stranger")).toBe(false);
    expect(canSettle(order, undefined)).toBe(false);
  });
});
