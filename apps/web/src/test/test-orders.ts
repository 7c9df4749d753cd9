import type { Order } from "@cartner/contract";
import { testUser } from "./render-app.tsx";
import { ben } from "./test-sessions.ts";

/** An order Ada (the test user, creator and payee) placed with Ben, as the API returns it. */
export function makeOrder(overrides: Partial<Order> = {}): Order {
  return {
    _id: "o-1",
    number: "CRT-000007",
    sessionId: "s-1",
    sessionName: "Weekend groceries",
    placedAt: "2025-05-03T10:00:00.000Z",
    placedBy: { _id: testUser._id, name: testUser.name },
    payee: { _id: testUser._id, name: testUser.name },
    lines: [
      {
        productId: "p-mug",
        name: "Stoneware Mug",
        unitPrice: 12.99,
        quantity: 2,
        addedBy: { _id: testUser._id, name: testUser.name },
        sharedWith: [],
        lineTotal: 25.98,
        adjusted: null,
        free: false,
        estimated: false,
        note: null,
        substitute: "any",
        hiddenFrom: [],
      },
      {
        productId: "p-tea",
        name: "Jasmine Green Tea",
        unitPrice: 6.5,
        quantity: 2,
        addedBy: { _id: ben._id, name: ben.name },
        sharedWith: [],
        lineTotal: 13,
        adjusted: null,
        free: false,
        estimated: false,
        note: null,
        substitute: "any",
        hiddenFrom: [],
      },
    ],
    split: [
      {
        userId: testUser._id,
        name: testUser.name,
        subtotal: 25.98,
        fees: 0.26,
        tax: 3.41,
        total: 29.65,
        originalTotal: 29.65,
        paid: 0,
        credit: 0,
        status: "confirmed",
        paidAt: null,
        confirmedAt: "2025-05-03T10:00:00.000Z",
        settledAs: null,
        accountDeleted: false,
        mail: "sent",
      },
      {
        userId: ben._id,
        name: ben.name,
        subtotal: 13,
        fees: 0.13,
        tax: 1.71,
        total: 14.84,
        originalTotal: 14.84,
        paid: 0,
        credit: 0,
        status: "unpaid",
        paidAt: null,
        confirmedAt: null,
        settledAs: null,
        accountDeleted: false,
        mail: "sent",
      },
    ],
    subtotal: 38.98,
    fees: 0.39,
    tax: 5.12,
    total: 44.49,
    originalTotal: 44.49,
    adjustments: [],
    payers: [{ user: { _id: testUser._id, name: testUser.name }, amount: 44.49 }],
    parts: [
      {
        debtor: ben._id,
        payer: testUser._id,
        amount: 14.84,
        open: 14.84,
        credit: 0,
        claimed: 0,
        claimedBack: 0,
      },
    ],
    privateCount: 0,
    ...overrides,
  };
}

/**
 * The order with one share's status changed, its parts as the book would say: a paid share's
 * open parts are claimed, a confirmed share's no longer open.
 */
export const withShareStatus = (
  order: Order,
  userId: string,
  status: "unpaid" | "paid" | "confirmed",
) => ({
  ...order,
  split: order.split.map((s) => (s.userId === userId ? { ...s, status } : s)),
  parts: order.parts.map((p) =>
    p.debtor !== userId
      ? p
      : status === "confirmed"
        ? { ...p, open: 0, claimed: 0 }
        : { ...p, claimed: status === "paid" ? p.open : 0 },
  ),
});

/**
 * The order after the payee marked all of a member's lines not delivered, before they paid: their
 * share is 0 with nothing paid, settled as the server stores it (`status`: an order adjusted
 * before the server settled such shares still says "unpaid").
 */
export const withZeroShare = (
  order: Order,
  userId: string,
  status: "unpaid" | "confirmed" = "confirmed",
): Order => ({
  ...order,
  split: order.split.map((s) =>
    s.userId === userId
      ? { ...s, subtotal: 0, fees: 0, tax: 0, total: 0, paid: 0, credit: 0, status }
      : s,
  ),
  parts: order.parts.filter((p) => p.debtor !== userId),
});
