/**
 * Private lines in what the server sends on its own: when the catalog changes a product on a line
 * hidden from a member who shares its cost, the live `catalog.updated` she gets does not name the
 * product, and the notice of her moved share does not either (the others' do). When the payee
 * reveals an order's private lines, the members hear it live. On both databases.
 */
import type { LiveServerMessage } from "@cartner/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { products as productsTable } from "../../src/db/schema.ts";
import { followCatalog } from "../../src/features/catalog/index.ts";
import { group } from "../group-support.ts";
import { createTestApp, type TestApp } from "../helpers.ts";
import { listenForLive, settle, signedIn, within } from "../live-peers.ts";

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await listenForLive(t);
});
afterAll(() => t.close());

type Line = { _id: string; productId: { _id: string; name: string } };

describe("a catalog change to a private line", () => {
  it("is told to the member it is hidden from without the product", async () => {
    const g = await group(t, ["Ann", "Ben", "Cat"] as const);
    await g.policy("equal");
    await g.add("Cat", "Morning Ritual Teapot", 1);
    await g.add("Ben", "Vanity LED Mirror", 1);
    const cart = (await g.as.Ben("GET", `/api/carts/${g.session.cartId}`)).json().cart;
    const line = (cart.products as Line[]).find((l) => l.productId.name === "Vanity LED Mirror")!;
    const hid = await g.as.Ben(
      "PUT",
      `/api/carts/${g.session.cartId}/lines/${line._id}/hidden-from`,
      { userIds: [g.id("Cat")] },
    );
    expect(hid.statusCode, hid.body).toBe(200);
    await t.app.idle();
    for (const n of ["Ann", "Cat"] as const) {
      await g.as[n]("POST", "/api/notifications/read", { all: true });
    }
    const ann = await signedIn(base, g.people.Ann.token);
    const cat = await signedIn(base, g.people.Cat.token);

    const mirror = line.productId._id;
    const [row] = await t.database.db
      .select()
      .from(productsTable)
      .where(eq(productsTable.id, mirror));
    await t.database.db
      .update(productsTable)
      .set({ priceCents: row!.priceCents + 300 })
      .where(eq(productsTable.id, mirror));
    await followCatalog(t.app.catalogFollow, [mirror]);
    await t.app.idle();

    const isCatalog = (m: LiveServerMessage) => m.type === "catalog.updated";
    expect(await within(ann.next(isCatalog), 2000)).toMatchObject({ productIds: [mirror] });
    await within(
      cat.next((m) => m.type === "cart.updated"),
      2000,
    );
    await settle();
    // Cat sees none of the changed products: no catalog event at all, only the cart's.
    expect(cat.messages.filter(isCatalog)).toEqual([]);
    expect(JSON.stringify(cat.messages)).not.toContain(mirror);

    // Her share moved (the split is equal): she hears of it, not of what changed.
    // The new ones (what was told before the hiding, its adding, was read above and stays).
    const notices = async (n: "Ann" | "Cat") =>
      (
        (await g.as[n]("GET", "/api/notifications")).json().notifications as {
          body: string;
          readAt: string | null;
        }[]
      ).filter((x) => x.readAt === null);
    const catTold = (await notices("Cat")).map((x) => x.body).join(" ");
    expect(catTold).toContain("The catalog changed");
    expect(catTold).not.toContain("Vanity LED Mirror");
    expect((await notices("Ann")).map((x) => x.body).join(" ")).toContain("Vanity LED Mirror");
  });
});

describe("revealing an order's private lines", () => {
  it("tells the members live: the order and the ended cart to refetch", async () => {
    const g = await group(t, ["Ann", "Ben", "Cat"] as const);
    await g.add("Cat", "Morning Ritual Teapot", 1);
    await g.add("Ben", "Vanity LED Mirror", 1);
    const cart = (await g.as.Ben("GET", `/api/carts/${g.session.cartId}`)).json().cart;
    const line = (cart.products as Line[]).find((l) => l.productId.name === "Vanity LED Mirror")!;
    const hid = await g.as.Ben(
      "PUT",
      `/api/carts/${g.session.cartId}/lines/${line._id}/hidden-from`,
      { userIds: [g.id("Cat")] },
    );
    expect(hid.statusCode, hid.body).toBe(200);
    const order = await g.checkout();
    await t.app.idle();
    const cat = await signedIn(base, g.people.Cat.token);
    await settle();

    const revealed = await g.as.Ann("POST", `/api/orders/${order._id}/reveal`);
    expect(revealed.statusCode, revealed.body).toBe(200);
    expect(
      await within(
        cat.next((m) => m.type === "order.updated"),
        2000,
      ),
    ).toMatchObject({ orderId: order._id });
    expect(
      await within(
        cat.next((m) => m.type === "cart.updated"),
        2000,
      ),
    ).toMatchObject({ cartId: g.session.cartId });
    const seen = (await g.as.Cat("GET", `/api/orders/${order._id}`)).json().order;
    expect(seen.privateCount).toBe(0);
    expect(JSON.stringify(seen)).toContain("Vanity LED Mirror");
  });
});
