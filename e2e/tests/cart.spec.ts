import crypto from "node:crypto";
import { expect, test, type Browser, type Page } from "@playwright/test";
import {
  apiCall,
  expectNoA11yViolations,
  sharedSession,
  signedInPerson,
  watchConsole,
  type SignedIn,
} from "./fixtures.ts";

type Person = SignedIn & { problems: string[] };

/** Someone signed up and signed in, in their own browser context. */
const person = (browser: Browser, name: string): Promise<Person> =>
  signedInPerson(browser, name, (page) => ({
    problems: watchConsole(page, { serverErrors: true }),
  }));

interface Product {
  _id: string;
  name: string;
  price: number;
  stock: number;
}

const money = (cents: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);

/** The cart section of a session on /cart. */
function cartOf(page: Page, sessionName: string) {
  return page.getByRole("region", { name: sessionName, exact: true });
}

/** Adds a product from its card on /products and waits for SPEC's toast. */
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

test("a shared cart: two members fill it, change quantities, see the same split; a viewer watches; deleting ends it", async ({
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

  // Ann deletes the cart: the session ends and the cart moves to history.
  await ann.page.goto("/cart");
  await annCart.getByRole("button", { name: `Delete cart ${sessionName}` }).click();
  await ann.page
    .getByRole("dialog", { name: "Are you sure you want to delete this cart?" })
    .getByRole("button", { name: "Delete cart" })
    .click();
  await expect(ann.page.getByText("Cart deleted successfully.").first()).toBeVisible();
  await expect(ann.page.getByText("You have no carts yet.")).toBeVisible();
  await ann.page.getByRole("link", { name: "Cart History" }).click();
  await expect(ann.page.getByRole("heading", { level: 1, name: "Cart History" })).toBeVisible();
  const past = ann.page.getByRole("region", { name: sessionName, exact: true });
  await expect(past.getByText(money(after)).first()).toBeVisible();
  // Deleted, not checked out: no order, so no receipt, and the history says why.
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
