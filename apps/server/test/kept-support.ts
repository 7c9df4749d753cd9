/**
 * Checks of orders kept by version (features/orders/reading/kept.ts): every answer that keeps
 * something of an order equals the order built afresh from its rows.
 */
import { OrderSchema, type Order } from "@cartner/contract";
import { isDeepStrictEqual } from "node:util";
import { expect } from "vitest";
import { orderOf } from "../src/features/orders/index.ts";
import type { Client, TestApp } from "./helpers.ts";

/** The order as built from its rows now, as the API sends it. */
export async function builtNow(t: TestApp, orderId: string): Promise<Order> {
  const order = await orderOf(t.database.db, orderId);
  return JSON.parse(JSON.stringify(OrderSchema.encode(order!))) as Order;
}

/** Reads everything that keeps something of the order, so a stale copy would be at hand. */
export async function readAll(as: Client, orderId: string) {
  const one = await as("GET", `/api/orders/${orderId}`);
  expect(one.statusCode, one.body).toBe(200);
  const list = await as("GET", "/api/orders");
  expect(list.statusCode, list.body).toBe(200);
  const balances = await as("GET", "/api/balances");
  expect(balances.statusCode, balances.body).toBe(200);
  return {
    one: one.json().order as Order,
    listed: (list.json().orders as Order[]).find((o) => o._id === orderId)!,
    balances: balances.json().balances as { user: { _id: string }; amount: number }[],
  };
}

/**
 * The answers, read twice (the second from what the first kept), equal the order built from its
 * rows right after them. The checkout mails are sent by jobs that write each share's mail status
 * meanwhile: an answer that differs is read again (an answer kept from before a write never
 * equals the order built after it, however often it is read).
 */
export async function expectCurrent(t: TestApp, as: Client, orderId: string) {
  for (let attempt = 1; ; attempt++) {
    const first = await readAll(as, orderId);
    const second = await readAll(as, orderId);
    const now = await builtNow(t, orderId);
    const answers = [first.one, first.listed, second.one, second.listed];
    if (answers.every((a) => isDeepStrictEqual(a, now)) || attempt === 20) {
      for (const a of answers) expect(a).toEqual(now);
      return now;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const statusOf = (order: Order, userId: string) =>
  order.split.find((s) => s.userId === userId)!.status;
