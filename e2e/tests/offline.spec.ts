import crypto from "node:crypto";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import {
  apiCall,
  orderSummaryTotal,
  runningTotals,
  sharedSession,
  signedInPerson,
  sum,
  type Product,
  cartOf,
} from "./fixtures.ts";

/**
 * A member in a shop with no signal. Changes made offline queue (in IndexedDB, each with
 * its Idempotency-Key), survive a reload, and reach the others once, in order, when the
 * connection is back; one the server refuses on replay says why. Adding something not in the
 * catalog and a line's note queue the same way.
 */

const OFFLINE_MESSAGE = "Offline – reconnecting…";
const WAITING = "Pending: waiting for connection";

interface CartLine {
  _id: string;
  quantity: number;
  productId: { _id: string | null; name: string };
  addedBy: { _id: string };
  note: string | null;
}

const person = (browser: Parameters<typeof signedInPerson>[0], name: string) =>
  signedInPerson(browser, name, (page: Page) => {
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    return { problems };
  });

/**
 * No signal for one person. Chromium's offline emulation has let a request through after a reload
 * the service worker served (a queued change reached the server while offline, in CI), so the
 * API is also cut at the context's network layer, as a lost connection cuts it.
 */
const api = (url: URL) => url.pathname.startsWith("/api/");
async function setOffline(context: BrowserContext, offline: boolean) {
  if (offline) await context.route(api, (route) => route.abort("internetdisconnected"));
  else await context.unroute(api);
  await context.setOffline(offline);
}

/** The row of a product's line in a cart section. */
function lineOf(page: Page, sessionName: string, name: string) {
  return cartOf(page, sessionName).getByRole("row").filter({ hasText: name });
}

test("changes made offline survive a reload and reach the others once, in order; a refused one says why", async ({
  browser,
}) => {
  const [ann, ben] = await Promise.all([person(browser, "Ann"), person(browser, "Ben")]);
  const sessionName = `Corner shop ${crypto.randomBytes(3).toString("hex")}`;
  const session = await sharedSession(ann, [ben], sessionName, { passcode: "sesame-42" });
  const { products } = await apiCall<{ products: Product[] }>(ann, "GET", "/api/products");
  const [milk, eggs, tea] = products.filter((p) => p.stock >= 10);
  expect(milk && eggs && tea).toBeTruthy();
  // Ben already has a line of milk, added while online.
  await apiCall(ben, "POST", `/api/carts/${session.cartId}/product`, { productId: milk!._id });

  // Online, Ben opens the marketplace and, from its menu, his carts: the app installs its service
  // worker and keeps what he saw.
  const page = ben.page;
  await page.goto("/products");
  await expect(page.getByRole("button", { name: `Add ${eggs!.name} to cart` })).toBeEnabled();
  // The worker is active: it serves the next page load, with or without a connection.
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.ready).active?.state))
    .toBe("activated");
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "My Cart" })
    .click();
  await expect(lineOf(page, sessionName, milk!.name)).toBeVisible();

  // Ann watches the cart, online.
  await ann.page.goto(`/cart/${session._id}`);
  const annCart = cartOf(ann.page, sessionName);
  const annLine = (product: Product) => lineOf(ann.page, sessionName, product.name);
  await expect(annLine(milk!)).toBeVisible();

  // No signal: the pill says so, and the marketplace still opens (a full page load).
  await setOffline(ben.context, true);
  await page.goto("/products");
  await expect(page.getByText(OFFLINE_MESSAGE)).toBeVisible();
  for (const product of [eggs!, tea!]) {
    await page.getByRole("button", { name: `Add ${product.name} to cart` }).click();
  }
  await expect(page.getByText(/You're offline: the change is saved/).first()).toBeVisible();

  // His cart shows both adds and a quantity change as pending.
  await page.goto(`/cart/${session._id}`);
  await expect(lineOf(page, sessionName, eggs!.name).getByText(WAITING)).toBeVisible();
  await expect(lineOf(page, sessionName, tea!.name).getByText(WAITING)).toBeVisible();
  await cartOf(page, sessionName)
    .getByRole("button", { name: `Increase quantity of ${milk!.name}` })
    .click();
  await expect(lineOf(page, sessionName, milk!.name).getByText(WAITING)).toBeVisible();
  // Something not in the catalog, and a note on his milk, queue behind them.
  const benCart = cartOf(page, sessionName);
  await benCart.getByRole("button", { name: "Add something not in the list" }).click();
  const freeForm = benCart.getByRole("form", { name: "Add something not in the list" });
  await freeForm.getByLabel("Name").fill("Birthday candles");
  await freeForm.getByLabel(/Estimated price each/).fill("2.50");
  await freeForm.getByRole("button", { name: "Add to cart" }).click();
  await expect(lineOf(page, sessionName, "Birthday candles").getByText(WAITING)).toBeVisible();
  await benCart.getByRole("button", { name: `Note and substitute: ${milk!.name}` }).click();
  const noteForm = benCart.getByRole("form", { name: `Note and substitute for ${milk!.name}` });
  await noteForm.getByLabel("Note for the shopper").fill("oat if no whole");
  await noteForm.getByRole("button", { name: "Save" }).click();
  await expect(lineOf(page, sessionName, milk!.name)).toContainText("Note: oat if no whole");

  // A reload while still offline keeps every pending change.
  await page.waitForTimeout(500);
  await page.reload();
  for (const name of [milk!.name, eggs!.name, tea!.name, "Birthday candles"]) {
    await expect(lineOf(page, sessionName, name).getByText(WAITING)).toBeVisible();
  }
  await expect(lineOf(page, sessionName, milk!.name).getByText("2", { exact: true })).toBeVisible();
  await expect(lineOf(page, sessionName, milk!.name)).toContainText("Note: oat if no whole");
  // The shares and the totals beside them (cart total, order summary) include the changes
  // waiting, say so, and add up (a note moves no figure).
  await expect(cartOf(page, sessionName).getByText("Includes 4 changes not yet sent.")).toHaveCount(
    3,
  );
  expect(sum(await runningTotals(page, sessionName))).toBe(
    await orderSummaryTotal(page, sessionName),
  );
  // Nothing reached Ann meanwhile.
  await expect(annLine(eggs!)).toHaveCount(0);

  // Back online: the queue is sent, and Ann's open cart shows exactly those changes, once.
  await setOffline(ben.context, false);
  await expect(page.getByText(WAITING)).toHaveCount(0);
  await expect(annLine(eggs!)).toBeVisible();
  await expect(annLine(tea!)).toBeVisible();
  await expect(annLine(milk!).getByText("2", { exact: true })).toBeVisible();
  await expect(lineOf(ann.page, sessionName, "Birthday candles")).toBeVisible();
  await expect(annLine(milk!)).toContainText("Note: oat if no whole");
  const { cart } = await apiCall<{ cart: { products: CartLine[] } }>(
    ann,
    "GET",
    `/api/sessions/${session._id}/cart`,
  );
  const quantities = Object.fromEntries(
    cart.products.map((line) => [line.productId._id ?? line.productId.name, line.quantity]),
  );
  expect(quantities).toEqual({
    [milk!._id]: 2,
    [eggs!._id]: 1,
    [tea!._id]: 1,
    "Birthday candles": 1,
  });
  expect(cart.products.find((l) => l.productId._id === milk!._id)!.note).toBe("oat if no whole");
  // The activity log has each change once, in the order Ben made them.
  const { events } = await apiCall<{
    events: Array<{ type: string; productId?: string | null }>;
  }>(ann, "GET", `/api/sessions/${session._id}/activity?limit=200`);
  expect(
    events.filter((e) => e.type.startsWith("item.")).map((e) => [e.type, e.productId]),
  ).toEqual([
    ["item.added", milk!._id],
    ["item.added", eggs!._id],
    ["item.added", tea!._id],
    ["item.quantity", milk!._id],
    ["item.added", null],
    ["item.edited", milk!._id],
  ]);

  // Offline again, Ben raises his tea; meanwhile Ann, the creator, removes that line. On
  // reconnect his change is refused: a toast says why, and the line is gone from his cart too.
  await setOffline(ben.context, true);
  await cartOf(page, sessionName)
    .getByRole("button", { name: `Increase quantity of ${tea!.name}` })
    .click();
  await expect(lineOf(page, sessionName, tea!.name).getByText(WAITING)).toBeVisible();
  await annCart.getByRole("button", { name: `Remove ${tea!.name}` }).click();
  // Ben's line: Ann confirms first.
  await ann.page
    .getByRole("dialog", { name: `Remove ${ben.user.name}'s ${tea!.name}?` })
    .getByRole("button", { name: "Remove" })
    .click();
  await expect(annLine(tea!)).toHaveCount(0);
  await setOffline(ben.context, false);
  await expect(page.getByText(`Could not change the quantity of ${tea!.name}.`)).toBeVisible();
  await expect(lineOf(page, sessionName, tea!.name)).toHaveCount(0);

  expect(ann.problems).toEqual([]);
  expect(ben.problems).toEqual([]);
  await Promise.all([ann.context.close(), ben.context.close()]);
});
