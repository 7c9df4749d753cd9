/**
 * Private lines at the cart's edges: a cleared cart's counts, the stock flags, a line given when
 * its adder leaves, and the notices of changes. For a member a line is hidden from, it leaves no
 * trace in any of them (decision 049). On both databases.
 */
import { ActivityEntrySchema } from "@cartner/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followCatalog } from "../../src/features/catalog/index.ts";
import { group } from "../group-support.ts";
import { createTestApp, type TestApp } from "../helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

type Line = {
  _id: string;
  productId: { _id: string; name: string };
  addedBy: { _id: string };
  quantity: number;
  stockShort: number;
  hiddenFrom: string[];
};

/** Ann creates, Ben and Cat take part; Ben adds a present for Cat and hides it from her. */
async function present(product = "Pulse Fitness Watch", quantity = 2) {
  const g = await group(t, ["Ann", "Ben", "Cat"] as const);
  await g.add("Cat", "Cosy Knit Scarf", 1);
  await g.add("Ben", product, quantity);
  const lines = async (who: "Ann" | "Ben" | "Cat") =>
    (await g.as[who]("GET", `/api/carts/${g.session.cartId}`)).json().cart.products as Line[];
  const line = (await lines("Ben")).find((l) => l.productId.name === product)!;
  const hid = await g.as.Ben(
    "PUT",
    `/api/carts/${g.session.cartId}/lines/${line._id}/hidden-from`,
    { userIds: [g.id("Cat")] },
  );
  expect(hid.statusCode, hid.body).toBe(200);
  return { ...g, line, lines };
}

describe("a cleared cart", () => {
  it("counts for each reader only the lines and units they saw", async () => {
    const g = await present();
    const res = await g.as.Ann("DELETE", `/api/carts/${g.session.cartId}/clear`);
    expect(res.statusCode, res.body).toBe(200);
    const cleared = async (who: "Ann" | "Cat") => {
      const log = await g.as[who]("GET", `/api/sessions/${g.session._id}/activity`);
      expect(log.statusCode, log.body).toBe(200);
      expect(log.body).not.toContain(g.line._id);
      const events = log.json().events.map((e: unknown) => ActivityEntrySchema.parse(e));
      return events.find((e: { type: string }) => e.type === "cart.cleared");
    };
    expect(await cleared("Ann")).toMatchObject({ lines: 2, items: 3 });
    const cat = await cleared("Cat");
    expect(cat).toMatchObject({ lines: 1, items: 1 });
    expect(Object.keys(cat)).not.toContain("hidden");
  });
});

describe("the stock flags", () => {
  it("do not show a hidden line's units through another line's shortage", async () => {
    const g = await present("Metro Commuter Bike", 2);
    await g.add("Cat", "Metro Commuter Bike", 1);
    const bike = g.line.productId._id;
    await t.database.db.execute(sql`update products set stock = 2 where id = ${bike}`);
    // As the operator's edit makes it: the catalog and the open carts follow the change.
    await followCatalog(t.app.catalogFollow, [bike]);
    await t.app.idle();
    const catsBike = (l: Line) => l.productId._id === bike && l.addedBy._id === g.id("Cat");
    // Ann sees both lines: three bikes wanted, two in stock, one short between them.
    const annsBikes = (await g.lines("Ann")).filter((l) => l.productId._id === bike);
    expect(annsBikes).toHaveLength(2);
    expect(annsBikes.reduce((n, l) => n + l.stockShort, 0)).toBe(1);
    // For Cat there is no other line of the bike: hers is not short.
    const cats = await g.lines("Cat");
    expect(cats.filter((l) => l.productId._id === bike)).toHaveLength(1);
    expect(cats.find(catsBike)!.stockShort).toBe(0);
  });
});

describe("a private line given when its adder leaves", () => {
  it("does not join a line seen by a member it was hidden from; it joins one hidden from them too", async () => {
    const g = await present();
    await g.add("Ann", "Pulse Fitness Watch", 1);
    const give = `/api/sessions/${g.session._id}/members/${g.id("Ben")}?lines=give&to=${g.id("Ann")}`;
    const refused = await g.as.Ann("DELETE", give);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toBe(
      "Pulse Fitness Watch is private and cannot join Ann's items: show it to everyone or remove it first.",
    );
    // Nothing changed: Cat still sees Ann's one watch, Ben is still a member.
    const annsWatch = (l: Line) =>
      l.productId._id === g.line.productId._id && l.addedBy._id === g.id("Ann");
    expect((await g.lines("Cat")).find(annsWatch)!.quantity).toBe(1);

    // Ann's line hidden from Cat too: the two become one, still hidden from her.
    const ann = (await g.lines("Ann")).find(annsWatch)!;
    const hid = await g.as.Ann(
      "PUT",
      `/api/carts/${g.session.cartId}/lines/${ann._id}/hidden-from`,
      { userIds: [g.id("Cat")] },
    );
    expect(hid.statusCode, hid.body).toBe(200);
    const given = await g.as.Ann("DELETE", give);
    expect(given.statusCode, given.body).toBe(200);
    const merged = (await g.lines("Ann")).find(annsWatch)!;
    expect(merged).toMatchObject({ quantity: 3, hiddenFrom: [g.id("Cat")] });
    const cat = (await g.as.Cat("GET", `/api/carts/${g.session.cartId}`)).json().cart;
    expect((cat.products as Line[]).map((l) => l.productId.name)).toEqual(["Cosy Knit Scarf"]);
    expect(cat.privateCount).toBe(1);
    const log = await g.as.Cat("GET", `/api/sessions/${g.session._id}/activity`);
    expect(log.body).not.toContain("Pulse Fitness Watch");
  });

  it("joins a line hidden from the same members (or more) as it was", async () => {
    const g = await present();
    const give = `/api/sessions/${g.session._id}/members/${g.id("Ben")}?lines=give&to=${g.id("Cat")}`;
    // Given to Cat, whom it was hidden from: she carries it now and sees it.
    const given = await g.as.Ann("DELETE", give);
    expect(given.statusCode, given.body).toBe(200);
    const cats = await g.lines("Cat");
    expect(cats.find((l) => l.productId.name === "Pulse Fitness Watch")).toMatchObject({
      quantity: 2,
      hiddenFrom: [],
    });
  });
});

describe("the notices of changes", () => {
  it("never name, nor count, a change to a line hidden from the reader", async () => {
    const g = await present();
    await t.app.idle();
    for (const n of ["Ann", "Cat"] as const) {
      await g.as[n]("POST", "/api/notifications/read", { all: true });
    }
    const cart = `/api/carts/${g.session.cartId}`;
    // Ben steps his private line, then one Cat sees, at once: told together or apart.
    const steps = await Promise.all([
      g.as.Ben("PATCH", `${cart}/quantity`, { productId: g.line.productId._id, change: 1 }),
      g.as.Ben("POST", `${cart}/product`, {
        productId: (await g.lines("Cat")).find((l) => l.productId.name === "Cosy Knit Scarf")!
          .productId._id,
        quantity: 1,
      }),
    ]);
    for (const s of steps) expect(s.statusCode, s.body).toBe(200);
    await t.app.idle();
    const unread = async (who: "Ann" | "Cat") =>
      (
        (await g.as[who]("GET", "/api/notifications")).json().notifications as {
          body: string;
          readAt: string | null;
        }[]
      )
        .filter((n) => n.readAt === null)
        .map((n) => n.body)
        .join(" | ");
    const cat = await unread("Cat");
    expect(cat).toContain("Cosy Knit Scarf");
    expect(cat).not.toContain("Pulse Fitness Watch");
    expect(cat).not.toContain("more");
    expect(await unread("Ann")).toMatch(/Pulse Fitness Watch|\+1 more/);
  });
});
