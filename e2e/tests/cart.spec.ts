import crypto from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import {
  apiCall,
  expectNoA11yViolations,
  sharedSession,
  person,
  type Product,
  cartOf,
} from "./fixtures.ts";

const money = (cents: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);

/** Adds a product from its card on /products and waits for the toast that confirms it. */
async function addFromCard(page: Page, product: Product) {
  await page.goto("/products");
  const add = page.getByRole("button", { name: `Add ${product.name} to cart` });
  await expect(add).toBeEnabled();
  await add.click();
  await expect(page.getByText("Added to cart for selected session.").first()).toBeVisible();
}

/** The per-person split on the summary page, without the "(you)" marker. */
async function splitOf(page: Page): Promise<string[]> {
  const shares = page.getByRole("list", { name: "Cost per participant" }).getByRole("listitem");
  await expect(shares.first()).toBeVisible();
  return (await shares.allTextContents()).map((text) => text.replace(" (you)", "")).sort();
}

test("a shared cart: two members fill it, change quantities, see the same split; a viewer watches; End Session ends it", async ({
  browser,
}) => {
  const [ann, ben, cleo] = await Promise.all([
    person(browser, "Ann"),
    person(browser, "Ben"),
    person(browser, "Cleo"),
  ]);
  const sessionName = `Groceries ${crypto.randomBytes(3).toString("hex")}`;
  const passcode = "sesame-42";

  // Setup through the API: Ann's session, Ben joins by code and passcode and Ann approves him,
  // Cleo is invited as a viewer and accepts.
  const session = await sharedSession(ann, [ben], sessionName, { passcode, participants: "3+" });
  await apiCall(ann, "POST", "/api/sessions/invite", {
    sessionCode: session.sessionCode,
    emailOrUsername: cleo.user.email,
    role: "viewer",
  });
  await apiCall(cleo, "POST", "/api/sessions/accinvite", { sessionCode: session.sessionCode });

  const { products } = await apiCall<{ products: Product[] }>(ann, "GET", "/api/products");
  const [mine, his] = products.filter((p) => p.stock >= 10);
  expect(mine && his).toBeTruthy();
  const a = mine!;
  const b = his!;

  // Both add from the product cards: the session is their active one.
  await Promise.all([addFromCard(ann.page, a), addFromCard(ben.page, b)]);

  // The viewer's add buttons are disabled, saying why.
  await cleo.page.goto("/products");
  const cleoAdd = cleo.page.getByRole("button", { name: `Add ${a.name} to cart` });
  await expect(cleoAdd).toBeDisabled();
  await expect(cleoAdd).toHaveAttribute("title", /Viewers can't add/);

  // Ann, the creator, sees both lines with every control, opened from the session's route.
  await ann.page.goto(`/cart/${session._id}`);
  await expect(ann.page.getByText("You have 1 active cart(s).")).toBeVisible();
  const annCart = cartOf(ann.page, sessionName);
  await expect(annCart.getByText("Creator: You · Participants: 3")).toBeVisible();
  await expect(annCart.getByText(`Added by ${ben.user.name} on`)).toBeVisible();
  await expect(
    annCart.getByText(money(Math.round(a.price * 100) + Math.round(b.price * 100))).first(),
  ).toBeVisible();

  // Ben is on his cart page: only his own line has controls.
  await ben.page.goto("/cart");
  const benCart = cartOf(ben.page, sessionName);
  await expect(benCart.getByText(`Creator: ${ann.user.name} · Participants: 3`)).toBeVisible();
  await expect(
    benCart.getByRole("button", { name: `Increase quantity of ${b.name}` }),
  ).toBeVisible();
  await expect(benCart.getByRole("button", { name: `Increase quantity of ${a.name}` })).toHaveCount(
    0,
  );
  await expect(benCart.getByRole("button", { name: `Remove ${a.name}` })).toHaveCount(0);

  // Ann raises her line and Ben's; Ben sees it within the sync, without reloading.
  await annCart.getByRole("button", { name: `Increase quantity of ${a.name}` }).click();
  await annCart.getByRole("button", { name: `Increase quantity of ${b.name}` }).click();
  const total = 2 * Math.round(a.price * 100) + 2 * Math.round(b.price * 100);
  await expect(annCart.getByText(money(total)).first()).toBeVisible();
  await expect(benCart.getByText(money(total)).first()).toBeVisible();

  // Ben lowers his own line; Ann sees it too.
  await benCart.getByRole("button", { name: `Decrease quantity of ${b.name}` }).click();
  const after = 2 * Math.round(a.price * 100) + Math.round(b.price * 100);
  await expect(benCart.getByText(money(after)).first()).toBeVisible();
  await expect(annCart.getByText(money(after)).first()).toBeVisible();
  // Minus at 1 is not offered.
  await expect(
    benCart.getByRole("button", { name: `Decrease quantity of ${b.name}` }),
  ).toBeDisabled();

  // The viewer sees the same cart and no controls.
  await cleo.page.goto("/cart");
  const cleoCart = cartOf(cleo.page, sessionName);
  await expect(cleoCart.getByText(money(after)).first()).toBeVisible();
  await expect(cleoCart.getByRole("button", { name: /quantity of|^Remove / })).toHaveCount(0);
  await expect(cleoCart.getByRole("button", { name: /^Clear Cart/ })).toHaveCount(0);

  // Both go on to the summary and see the same split and total.
  await annCart.getByRole("button", { name: `Proceed to Checkout for ${sessionName}` }).click();
  await expect(ann.page).toHaveURL(new RegExp(`/session-summary/${session._id}$`));
  await expect(ann.page.getByRole("heading", { level: 1, name: sessionName })).toBeVisible();
  await ben.page.goto(`/session-summary/${session._id}`);
  await expect(ben.page.getByRole("heading", { level: 1, name: sessionName })).toBeVisible();
  const annSplit = await splitOf(ann.page);
  expect(annSplit).toHaveLength(3);
  expect(await splitOf(ben.page)).toEqual(annSplit);
  // The same figures for both (below them, the creator checks out and the others are told so).
  const totalsOf = (page: typeof ann.page) =>
    page.getByRole("region", { name: "Total" }).locator("dl").textContent();
  const annTotal = await totalsOf(ann.page);
  expect(await totalsOf(ben.page)).toBe(annTotal);
  // Subtotal, then 1 % fees and 13 % tax on both, rounded half up.
  const fees = Math.floor((after + 50) / 100);
  const tax = Math.floor(((after + fees) * 13 + 50) / 100);
  expect(annTotal).toContain(money(after));
  expect(annTotal).toContain(money(after + fees + tax));
  expect(annSplit.join(" ")).toContain(money(2 * Math.round(a.price * 100)));

  // Ann ends the session from the cart page, with the lobby's End Session confirm: the cart
  // moves to history.
  await ann.page.goto("/cart");
  await annCart.getByRole("button", { name: `End Session ${sessionName}` }).click();
  await ann.page
    .getByRole("dialog", { name: `End “${sessionName}”?` })
    .getByRole("button", { name: "End Session" })
    .click();
  await expect(ann.page.getByText("You have no carts yet.")).toBeVisible();
  await ann.page.getByRole("link", { name: "Cart History" }).click();
  await expect(ann.page.getByRole("heading", { level: 1, name: "Cart History" })).toBeVisible();
  const past = ann.page.getByRole("region", { name: sessionName, exact: true });
  await expect(past.getByText(money(after)).first()).toBeVisible();
  // Ended, not checked out: no order, so no receipt, and the history says why.
  await expect(past.getByRole("button", { name: "Download Receipt" })).toBeDisabled();
  await expect(past.getByText("Ended without checkout: there is no receipt.")).toBeVisible();
  await expect(past.getByRole("button", { name: /quantity of/ })).toHaveCount(0);

  // Ben no longer has a session to add to.
  await ben.page.goto("/products");
  await ben.page.getByRole("button", { name: `Add ${b.name} to cart` }).click();
  await expect(ben.page.getByText("Please select a session with a cart.").first()).toBeVisible();
  await ben.page.goto("/cart");
  await expect(ben.page.getByText("You have no carts yet.")).toBeVisible();

  for (const who of [ann, ben, cleo]) {
    expect(who.problems, who.user.name).toEqual([]);
    await who.context.close();
  }
});

test("removing a line: someone else's asks first, every removal offers Undo, and Undo gives the line back as it was @phone", async ({
  browser,
}, testInfo) => {
  const [ann, ben] = await Promise.all([person(browser, "Ann"), person(browser, "Ben")]);
  const sessionName = `Picnic ${crypto.randomBytes(3).toString("hex")}`;
  const session = await sharedSession(ann, [ben], sessionName);
  const { products } = await apiCall<{ products: Product[] }>(ann, "GET", "/api/products");
  const [a, b] = products.filter((p) => p.stock >= 10) as [Product, Product];
  // Ann adds a line; Ben adds two of another and shares it with Ann.
  await apiCall(ann, "POST", `/api/carts/${session.cartId}/product`, { productId: a._id });
  const added = await apiCall<{ cart: { products: { _id: string; addedBy: { _id: string } }[] } }>(
    ben,
    "POST",
    `/api/carts/${session.cartId}/product`,
    { productId: b._id, quantity: 2 },
  );
  const benLine = added.cart.products.find((l) => l.addedBy._id === ben.id)!;
  const shared = await ben.page.request.put(
    `/api/carts/${session.cartId}/lines/${benLine._id}/shared-with`,
    {
      headers: { Authorization: `Bearer ${ben.token}` },
      data: { userIds: [ann.id, ben.id] },
    },
  );
  expect(shared.ok()).toBe(true);

  await Promise.all([ann.page.goto(`/cart/${session._id}`), ben.page.goto(`/cart/${session._id}`)]);
  const annCart = cartOf(ann.page, sessionName);
  const benCart = cartOf(ben.page, sessionName);
  const benRow = (page: Page) => cartOf(page, sessionName).getByRole("row", { name: b.name });
  await expect(benRow(ann.page)).toContainText(`Added by ${ben.user.name}`);
  await expect(benRow(ben.page)).toContainText(`Shared by ${ann.user.name}, ${ben.user.name}`);
  const shares = annCart.getByRole("list", { name: "Running totals" });
  const benShares = benCart.getByRole("list", { name: "Running totals" });
  const before = await shares.textContent();
  const benBefore = await benShares.textContent();
  expect(before).toBeTruthy();

  // Ann removes Ben's line: a confirm names it, whose it is and who shares it.
  await annCart.getByRole("button", { name: `Remove ${b.name}` }).click();
  const dialog = ann.page.getByRole("dialog", { name: `Remove ${ben.user.name}'s ${b.name}?` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`${ben.user.name} added it; it is shared with you.`);
  await ann.page.screenshot({ path: `/tmp/wt-c-confirm-${testInfo.project.name}.png` });
  await dialog.getByRole("button", { name: "Remove" }).click();
  await expect(benRow(ann.page)).toHaveCount(0);
  const undo = ann.page.getByRole("button", { name: "Undo", exact: true });
  await expect(ann.page.getByText(`Removed ${ben.user.name}'s ${b.name}.`)).toBeVisible();
  await ann.page.screenshot({ path: `/tmp/wt-c-undo-${testInfo.project.name}.png` });
  await undo.click();
  // Undo closes its toast.
  await expect(ann.page.getByText(`Removed ${ben.user.name}'s ${b.name}.`)).toHaveCount(0);

  // The line is back for both, live: still Ben's, still shared, and the split is as before.
  await expect(benRow(ann.page)).toContainText(`Added by ${ben.user.name}`);
  await expect(benRow(ben.page)).toContainText(`Added by ${ben.user.name}`);
  await expect(benRow(ben.page)).toContainText(`Shared by ${ann.user.name}, ${ben.user.name}`);
  await expect(shares).toHaveText(before!);
  await expect(benShares).toHaveText(benBefore!);
  await expect(benRow(ann.page).getByText("2", { exact: true })).toBeVisible();

  // Ann's own unshared line goes at once, without a confirm, and comes back with Undo.
  await annCart.getByRole("button", { name: `Remove ${a.name}` }).click();
  await expect(ann.page.getByRole("dialog")).toHaveCount(0);
  await expect(annCart.getByRole("row", { name: a.name })).toHaveCount(0);
  await expect(ann.page.getByText(`Removed your ${a.name}.`)).toBeVisible();
  await ann.page.getByRole("button", { name: "Undo", exact: true }).click();
  await expect(annCart.getByRole("row", { name: a.name })).toContainText(
    `Added by ${ann.user.name}`,
  );
  await expect(cartOf(ben.page, sessionName).getByRole("row", { name: a.name })).toBeVisible();
  await expect(shares).toHaveText(before!);

  for (const who of [ann, ben]) {
    expect(who.problems, who.user.name).toEqual([]);
    await who.context.close();
  }
});

test("the cart pages have no serious accessibility violations", async ({ browser }) => {
  const ann = await person(browser, "Ann");
  const { session } = await apiCall<{ session: { _id: string; cartId: string } }>(
    ann,
    "POST",
    "/api/sessions",
    { sessionName: "Accessible cart", sessionType: "Solo", participants: "1" },
  );
  const { products } = await apiCall<{ products: Product[] }>(ann, "GET", "/api/products");
  const product = products.find((p) => p.stock >= 5)!;
  await apiCall(ann, "POST", `/api/carts/${session.cartId}/product`, {
    productId: product._id,
    quantity: 2,
  });
  for (const [path, ready] of [
    ["/cart", "You have 1 active cart(s)."],
    [`/session-summary/${session._id}`, "Cost split"],
  ] as const) {
    await ann.page.goto(path);
    await expect(ann.page.getByText(ready)).toBeVisible();
    await expectNoA11yViolations(ann.page);
  }
  expect(ann.problems).toEqual([]);
  await ann.context.close();
});
