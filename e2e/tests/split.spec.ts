import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import {
  apiCall,
  expectNoA11yViolations,
  runningTotals,
  sum,
  sharedSession,
  person,
  type Product,
} from "./fixtures.ts";

test("a group splits its cart: equal split and fees, a shared line, a budget gone over, live for everyone", async ({
  browser,
}) => {
  const [ann, ben, dan] = await Promise.all([
    person(browser, "Ann"),
    person(browser, "Ben"),
    person(browser, "Dan"),
  ]);
  const sessionName = `Dinner ${crypto.randomBytes(3).toString("hex")}`;
  const session = await sharedSession(ann, [ben, dan], sessionName, { passcode: "olive-7" });
  const { products } = await apiCall<{ products: Product[] }>(ann, "GET", "/api/products");
  const [bread, wine, cheese] = products.filter((p) => p.stock >= 10);
  await apiCall(ann, "POST", `/api/carts/${session.cartId}/product`, { productId: bread!._id });
  await apiCall(ben, "POST", `/api/carts/${session.cartId}/product`, { productId: wine!._id });

  // Ann, the creator, picks "equally" for the items and for the fees in the lobby.
  await ann.page.goto(`/session/${session._id}`);
  const policy = ann.page.getByTestId("split-policy");
  await expect(policy).toContainText("Each member pays for the lines they added.");
  await policy
    .getByRole("group", { name: "Split the items" })
    .getByRole("radio", { name: /^Equally/ })
    .check();
  await policy
    .getByRole("group", { name: "Split the fees" })
    .getByRole("radio", { name: /^Equally/ })
    .check();
  await expect(policy.getByRole("list", { name: "Preview of the shares" })).toBeVisible();
  await policy.getByRole("button", { name: "Save split policy" }).click();
  await expect(ann.page.getByText("Split policy saved.")).toBeVisible();
  await expect(policy).toContainText("Every line is shared equally");
  await expectNoA11yViolations(ann.page, "lobby with the split policy");

  // Everyone watches the cart page.
  await Promise.all([ann, ben, dan].map((p) => p.page.goto(`/cart/${session._id}`)));
  const before = await runningTotals(ann.page, sessionName);
  expect(Object.keys(before).sort()).toEqual(["Ann", "Ben", "Dan"]);

  // Ben shares his wine with Ann only.
  const sharing = ben.page.getByTestId("line-sharing");
  await sharing.locator("summary").click();
  const wineGroup = sharing.getByRole("group", { name: new RegExp(wine!.name) });
  await wineGroup.getByRole("checkbox", { name: "Ann" }).check();
  await wineGroup.getByRole("checkbox", { name: "Ben" }).check();
  await wineGroup.getByRole("button", { name: /Save sharing/ }).click();
  await expect(ben.page.getByText(`${wine!.name} is now shared by 2.`)).toBeVisible();
  // Ann's open cart shows the line's sharers without a reload.
  await expect(ann.page.getByText("Shared by Ann, Ben", { exact: true })).toBeVisible();
  await expectNoA11yViolations(ben.page, "cart with line sharing");

  // Dan sets a budget of 1.00 and goes over it by adding cheese: the add goes through, he is told.
  const danCart = dan.page.getByRole("region", { name: sessionName, exact: true });
  await danCart.getByLabel("My budget").fill("1");
  await danCart.getByRole("button", { name: "Save", exact: true }).click();
  await expect(dan.page.getByText("Budget set to $1.00.")).toBeVisible();
  await dan.page.goto("/products");
  await dan.page.getByRole("button", { name: `Add ${cheese!.name} to cart` }).click();
  await expect(dan.page.getByText("Your share is now over your budget.")).toBeVisible();

  // Ann's page, never reloaded, follows: Dan now carries a third of the bread and the cheese, and
  // none of the wine; every page's shares add up to the summary's total.
  const summary = await apiCall<{ total: number }>(
    ann,
    "GET",
    `/api/sessions/${session._id}/summary`,
  );
  const total = Math.round(summary.total * 100);
  await expect.poll(async () => sum(await runningTotals(ann.page, sessionName))).toBe(total);
  await dan.page.goto(`/cart/${session._id}`);
  for (const page of [ann.page, ben.page, dan.page]) {
    await expect.poll(async () => sum(await runningTotals(page, sessionName))).toBe(total);
  }
  const after = await runningTotals(ann.page, sessionName);
  expect(after.Ann).toBeGreaterThan(after.Dan!);
  await expect(
    dan.page.getByRole("progressbar", { name: "Dan's share of their budget" }),
  ).toBeVisible();

  // The summary says how the session splits.
  await ann.page.goto(`/session-summary/${session._id}`);
  await expect(ann.page.getByText(/Every line is shared equally/)).toBeVisible();

  for (const p of [ann, ben, dan]) expect(p.problems).toEqual([]);
});

test("a member who still pays for lines is not made a viewer: the lobby says why and leads to the cart", async ({
  browser,
}) => {
  const [ann, ben] = await Promise.all([person(browser, "Ann"), person(browser, "Ben")]);
  const session = await sharedSession(
    ann,
    [ben],
    `Picnic ${crypto.randomBytes(3).toString("hex")}`,
  );
  const { products } = await apiCall<{ products: Product[] }>(ann, "GET", "/api/products");
  const [first, second] = products.filter((p) => p.stock >= 10);
  for (const product of [first!, second!]) {
    await apiCall(ben, "POST", `/api/carts/${session.cartId}/product`, { productId: product._id });
  }

  await ann.page.setViewportSize({ width: 360, height: 740 });
  await ann.page.goto(`/session/${session._id}`);
  const role = ann.page.getByLabel("Role of Ben");
  await role.selectOption("viewer");
  const dialog = ann.page.getByRole("dialog", { name: "Ben still pays for items in the cart" });
  await expect(dialog).toContainText(
    "Ben still has 2 lines in the cart: remove them or share them with others first.",
  );
  await expectNoA11yViolations(ann.page, "the lobby's role dialog");
  await dialog.getByRole("button", { name: "Keep Ben a participant" }).click();
  await expect(role).toHaveValue("participant");

  // Open the cart from the dialog: the way to fix it.
  await role.selectOption("viewer");
  await dialog.getByRole("button", { name: "Open the cart" }).click();
  await expect(ann.page).toHaveURL(new RegExp(`/cart/${session._id}$`));

  // Ben takes his lines out; now he can watch without paying.
  for (const product of [first!, second!]) {
    const gone = await ben.page.request.delete(
      `/api/carts/${session.cartId}/product/${product._id}`,
      { headers: { Authorization: `Bearer ${ben.token}` } },
    );
    expect(gone.ok()).toBe(true);
  }
  await ann.page.goto(`/session/${session._id}`);
  await ann.page.getByLabel("Role of Ben").selectOption("viewer");
  await expect(ann.page.getByText("Ben is now a viewer.")).toBeVisible();
  await expect(ann.page.getByLabel("Role of Ben")).toHaveValue("viewer");
  expect(ann.problems).toEqual([]);
  expect(ben.problems).toEqual([]);
});

test("by weights: one member at 50, the others left at the 100 shown, pays half of each @phone", async ({
  browser,
}) => {
  const [ann, ben, dan] = await Promise.all([
    person(browser, "Ann"),
    person(browser, "Ben"),
    person(browser, "Dan"),
  ]);
  const sessionName = `Family shop ${crypto.randomBytes(3).toString("hex")}`;
  const session = await sharedSession(ann, [ben, dan], sessionName);
  // A line whose subtotal, fees (1 %, half up) and tax (13 % of both, half up) each divide into
  // fifths, so weights 100:100:50 give exact shares and "half" holds to the cent.
  const fees = (s: number) => Math.floor((s + 50) / 100);
  const tax = (s: number) => Math.floor(((s + fees(s)) * 13 + 50) / 100);
  const fifths = (s: number) => s % 5 === 0 && fees(s) % 5 === 0 && tax(s) % 5 === 0;
  const { products } = await apiCall<{ products: Product[] }>(ann, "GET", "/api/products");
  const pick = products
    .flatMap((p) =>
      Array.from({ length: Math.min(p.stock, 30) }, (_, i) => ({ product: p, quantity: i + 1 })),
    )
    .find(({ product, quantity }) => fifths(Math.round(product.price * 100) * quantity));
  expect(pick, "a product and quantity whose cents divide into fifths").toBeDefined();
  // Dan, the one at 50, adds it: by adder (or with missing weights read as 0) he would carry it all.
  await apiCall(dan, "POST", `/api/carts/${session.cartId}/product`, {
    productId: pick!.product._id,
    quantity: pick!.quantity,
  });

  // Ann, the creator, picks "by weights" in the lobby and types 50 for Dan alone.
  await ann.page.goto(`/session/${session._id}`);
  const policy = ann.page.getByTestId("split-policy");
  await policy
    .getByRole("group", { name: "Split the items" })
    .getByRole("radio", { name: /^By weights/ })
    .check();
  const weights = policy.getByRole("group", { name: "Weights (0 to 100)" });
  for (const name of ["Ann", "Ben", "Dan"]) {
    await expect(weights.getByRole("spinbutton", { name })).toHaveValue("100");
  }
  await weights.getByRole("spinbutton", { name: "Dan" }).fill("50");
  await expect(policy.getByRole("list", { name: "Preview of the shares" })).toBeVisible();
  await policy.getByRole("button", { name: "Save split policy" }).click();
  await expect(ann.page.getByText("Split policy saved.")).toBeVisible();
  await expect(policy).toContainText("Lines are shared by weight");

  // The cart's running totals: Dan pays half of Ann and half of Ben, to the cent, adding up.
  const summary = await apiCall<{ total: number; subtotal: number; fees: number; tax: number }>(
    ann,
    "GET",
    `/api/sessions/${session._id}/summary`,
  );
  const subtotal = Math.round(summary.subtotal * 100);
  expect([Math.round(summary.fees * 100), Math.round(summary.tax * 100)]).toEqual([
    fees(subtotal),
    tax(subtotal),
  ]);
  const total = Math.round(summary.total * 100);
  for (const p of [ann, dan]) {
    await p.page.goto(`/cart/${session._id}`);
    const totals = await runningTotals(p.page, sessionName);
    expect(totals).toEqual({ Ann: (total / 5) * 2, Ben: (total / 5) * 2, Dan: total / 5 });
    expect(sum(totals)).toBe(total);
  }

  for (const p of [ann, ben, dan]) expect(p.problems).toEqual([]);
});
