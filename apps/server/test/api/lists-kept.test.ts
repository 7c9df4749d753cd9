/**
 * The activity log, the notifications list and the CSV of all orders are kept per reader and
 * query (lib/kept-answers.ts) while their light query reads the same: every change a reader must
 * see is seen by the next read, after a read that kept the answer from before it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { group } from "../group-support.ts";
import { createTestApp, type TestApp } from "../helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Line = { _id: string; productId: { _id: string; name: string } };
type Notice = { _id: string; body: string; readAt: string | null };

describe("the activity log, kept", () => {
  it("follows a new entry, a line hidden from the reader and shown again", async () => {
    const g = await group(t, ["Ann", "Ben", "Cat"] as const);
    const log = async (who: "Ann" | "Cat") => {
      const res = await g.as[who]("GET", `/api/sessions/${g.session._id}/activity`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { events: { seq: number; type: string }[]; nextSeq: number };
    };
    await g.add("Ben", "Pulse Fitness Watch", 2);
    const before = await log("Cat");
    expect(await log("Cat")).toEqual(before);
    expect(JSON.stringify(before)).toContain("Pulse Fitness Watch");

    await g.add("Ann", "Cosy Knit Scarf", 1);
    const added = await log("Cat");
    expect(added.events).toHaveLength(before.events.length + 1);
    expect(added.nextSeq).toBeGreaterThan(before.nextSeq);
    expect((await log("Ann")).events).toHaveLength(added.events.length);

    const cart = (await g.as.Ben("GET", `/api/carts/${g.session.cartId}`)).json().cart;
    const watch = (cart.products as Line[]).find((l) => l.productId.name.startsWith("Pulse"))!;
    const url = `/api/carts/${g.session.cartId}/lines/${watch._id}/hidden-from`;
    expect((await g.as.Ben("PUT", url, { userIds: [g.id("Cat")] })).statusCode).toBe(200);
    expect(JSON.stringify(await log("Cat"))).not.toContain("Pulse Fitness Watch");
    expect(JSON.stringify(await log("Ann"))).toContain("Pulse Fitness Watch");

    expect((await g.as.Ben("PUT", url, { userIds: [] })).statusCode).toBe(200);
    expect(JSON.stringify(await log("Cat"))).toContain("Pulse Fitness Watch");
  });
});

describe("the notifications list, kept", () => {
  it("follows a new notice, a regrouped one and reading them", async () => {
    const g = await group(t, ["Ann", "Ben"] as const);
    const list = async () => {
      const res = await g.as.Ann("GET", "/api/notifications");
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { notifications: Notice[]; unread: number };
    };
    await t.app.idle();
    const first = await list();
    expect(await list()).toEqual(first);

    await g.add("Ben", "Pulse Fitness Watch", 1);
    await t.app.idle();
    const told = await list();
    expect(told.unread).toBe(first.unread + 1);
    expect(told.notifications[0]!.body).toContain("Pulse Fitness Watch");

    // The next change rewrites the same unread row: the same id, a new text.
    await g.add("Ben", "Cosy Knit Scarf", 1);
    await t.app.idle();
    const regrouped = await list();
    expect(regrouped.unread).toBe(told.unread);
    expect(regrouped.notifications[0]!._id).toBe(told.notifications[0]!._id);
    expect(regrouped.notifications[0]!.body).toContain("Cosy Knit Scarf");
    expect(regrouped.notifications[0]!.body).toContain("(+1 more)");

    const read = await g.as.Ann("POST", "/api/notifications/read", { all: true });
    expect(read.statusCode, read.body).toBe(200);
    const after = await list();
    expect(after.unread).toBe(0);
    expect(after.notifications.every((n) => n.readAt !== null)).toBe(true);
  });
});

describe("the CSV of all orders, kept", () => {
  it("follows the reader's time zone", async () => {
    const g = await group(t, ["Ann", "Ben"] as const);
    await g.add("Ben", "Cosy Knit Scarf", 1);
    await g.checkout();
    const csv = async () => (await g.as.Ben("GET", "/api/orders/export.csv")).body;
    const utc = await csv();
    expect(await csv()).toBe(utc);
    expect(utc).toMatch(/T\d\d:\d\d:\d\dZ/);
    const zone = await g.as.Ben("PUT", "/api/users/me/time-zone", { timeZone: "Asia/Tokyo" });
    expect(zone.statusCode, zone.body).toBe(200);
    const tokyo = await csv();
    expect(tokyo).toMatch(/T\d\d:\d\d:\d\d\+09:00/);
    expect(tokyo).not.toMatch(/T\d\d:\d\d:\d\dZ/);
  });
});
