import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import {
  apiCall,
  cartOf,
  checkOutFromSummary,
  person,
  sharedSession,
  type Product,
} from "./fixtures.ts";

test("after a weekly session's checkout, the next session's cart offers what the group bought, free lines too, and one tap adds it", async ({
  browser,
}) => {
  const [ann, ben] = await Promise.all([person(browser, "Ann"), person(browser, "Ben")]);
  const sessionName = `Weekly basket ${crypto.randomBytes(3).toString("hex")}`;
  const session = await sharedSession(ann, [ben], sessionName);
  const { products } = await apiCall<{ products: Product[] }>(ann, "GET", "/api/products");
  const [bread, wine] = products.filter((p) => p.stock >= 10);
  await apiCall(ann, "POST", `/api/carts/${session.cartId}/product`, { productId: bread!._id });
  await apiCall(ben, "POST", `/api/carts/${session.cartId}/product`, {
    productId: wine!._id,
    quantity: 2,
  });
  await apiCall(ben, "POST", `/api/carts/${session.cartId}/free-lines`, {
    name: "Birthday candles",
    estimatedPrice: 2,
  });
  await apiCall(ann, "PUT", `/api/sessions/${session._id}/series`, {
    rule: "FREQ=WEEKLY;BYDAY=FR;BYHOUR=18;BYMINUTE=0",
    timeZone: "Europe/Paris",
  });

  // Ann checks out; the series' next session starts at once.
  await checkOutFromSummary(ann.page, session._id);
  let nextId = "";
  await expect
    .poll(
      async () => {
        const { session: old } = await apiCall<{ session: { nextSessionId: string | null } }>(
          ben,
          "GET",
          `/api/sessions/${session._id}`,
        );
        nextId = old.nextSessionId ?? "";
        return nextId;
      },
      { timeout: 30_000 },
    )
    .not.toBe("");

  // Ben opens the new, empty cart: both of last week's products are offered, bought once each.
  await ben.page.goto(`/cart/${nextId}`);
  const cart = cartOf(ben.page, sessionName);
  await expect(cart.getByText("This cart is empty.")).toBeVisible();
  const buyAgain = cart.getByRole("region", { name: "Buy again" });
  for (const product of [bread!, wine!]) {
    await expect(buyAgain.getByRole("listitem").filter({ hasText: product.name })).toContainText(
      "Bought once",
    );
  }

  await expect(
    buyAgain.getByRole("listitem").filter({ hasText: "Birthday candles" }),
  ).toContainText("Bought once");

  // One tap: the wine is in the cart, and no longer offered.
  await buyAgain.getByRole("button", { name: `Add ${wine!.name}` }).click();
  const lines = cart.getByRole("table", { name: `Items in ${sessionName}` });
  await expect(lines.getByText(wine!.name, { exact: true })).toBeVisible();
  await expect(buyAgain.getByRole("button", { name: `Add ${wine!.name}` })).toHaveCount(0);
  await expect(buyAgain.getByRole("button", { name: `Add ${bread!.name}` })).toBeVisible();

  // The candles come back by name, at last week's estimate.
  await buyAgain.getByRole("button", { name: "Add Birthday candles" }).click();
  await expect(lines.getByText("Birthday candles", { exact: true })).toBeVisible();
  await expect(buyAgain.getByRole("button", { name: "Add Birthday candles" })).toHaveCount(0);

  // The server has it: Ann sees Ben's line, and the wine is not offered to her either.
  await ann.page.goto(`/cart/${nextId}`);
  const annCart = cartOf(ann.page, sessionName);
  await expect(
    annCart.getByRole("table", { name: `Items in ${sessionName}` }).getByText(wine!.name, {
      exact: true,
    }),
  ).toBeVisible();
  const annOffers = annCart.getByRole("region", { name: "Buy again" });
  await expect(annOffers.getByRole("button", { name: `Add ${bread!.name}` })).toBeVisible();
  await expect(annOffers.getByRole("button", { name: `Add ${wine!.name}` })).toHaveCount(0);
  expect([...ann.problems, ...ben.problems]).toEqual([]);
});
