import crypto from "node:crypto";
import { expect, test, type Browser, type Page } from "@playwright/test";
import jsqr from "jsqr";
import { PNG } from "pngjs";

// jsqr is CommonJS whose typings say `export default`: its default import is the module object.
const jsQR = jsqr.default;
import {
  PASSWORD,
  apiCall,
  enterCode,
  newUser,
  readCode,
  sharedSession,
  watchConsole,
  person,
} from "./fixtures.ts";

/** Ann's session with Ben as an approved participant; both signed in, in their own browsers. */
async function sessionWithBen(browser: Browser) {
  const [ann, ben] = await Promise.all([person(browser, "Ann"), person(browser, "Ben")]);
  const sessionName = `Market ${crypto.randomBytes(3).toString("hex")}`;
  const session = await sharedSession(ann, [ben], sessionName, {
    passcode: "fig-4",
    participants: "3+",
  });
  return { ann, ben, session, sessionName };
}

test("forgot password: a code from the outbox, a new password, and every device signed out", async ({
  browser,
}) => {
  const ann = await person(browser, "Ann");
  // A second device that the reset must sign out.
  const phone = await browser.newContext();
  const phonePage = await phone.newPage();
  await phonePage.goto("/");
  await phonePage.evaluate(
    ([token, user]) => {
      localStorage.setItem("token", token);
      localStorage.setItem("user", user);
    },
    [ann.token, JSON.stringify({ _id: ann.id, name: "Ann", email: ann.user.email })] as const,
  );

  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  const problems = watchConsole(page, { serverErrors: true });
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await page.getByLabel("Email").fill(ann.user.email);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page).toHaveURL(/\/reset-password$/);
  await expect(page.getByRole("status")).toContainText("If an account uses this email");
  await expect(page.getByLabel("Email")).toHaveValue(ann.user.email);
  await expect(page.getByRole("link", { name: "/dev/mailbox" })).toBeVisible();

  const code = await readCode(page.request, ann.user.email);
  await page.getByLabel("Code").fill(code);
  await page.getByLabel("New password", { exact: true }).fill("fresh-orchard-88");
  await page.getByLabel("Confirm new password").fill("fresh-orchard-88");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByText("Password changed. Sign in with your new password.")).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  // The old password no longer works; the new one does (with a sign-in code).
  await page.getByLabel("Email").fill(ann.user.email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText(/Invalid email or password/).first()).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill("fresh-orchard-88");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/verify-otp$/);
  await enterCode(page, await readCode(page.request, ann.user.email));
  await expect(page.getByRole("button", { name: "Logout" }).first()).toBeVisible();

  // Ann's other devices were signed out: the old token is refused.
  const old = await phonePage.request.get("/api/auth/validate-token", {
    headers: { Authorization: `Bearer ${ann.token}` },
  });
  expect(old.status()).toBe(401);
  expect([...problems, ...ann.problems]).toEqual([]);
  await phone.close();
  await visitor.close();
});

test("someone else asking for Ann's password reset does not keep her from signing in", async ({
  browser,
}) => {
  const ann = await person(browser, "Ann");
  const stranger = await browser.newContext();
  const strangerPage = await stranger.newPage();
  await strangerPage.goto("/forgot-password");
  await strangerPage.getByLabel("Email").fill(ann.user.email);
  await strangerPage.getByRole("button", { name: "Send code" }).click();
  await expect(strangerPage).toHaveURL(/\/reset-password$/);

  // Ann, on another device a moment later, signs in with her password as usual.
  const laptop = await browser.newContext();
  const page = await laptop.newPage();
  const problems = watchConsole(page, { serverErrors: true });
  await page.goto("/login");
  await page.getByLabel("Email").fill(ann.user.email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/verify-otp$/);
  await enterCode(page, await readCode(page.request, ann.user.email));
  await expect(page.getByRole("button", { name: "Logout" }).first()).toBeVisible();
  expect([...problems, ...ann.problems]).toEqual([]);
  await stranger.close();
  await laptop.close();
});

test("an invite link with a QR code, opened signed out: the visitor signs up on the way and joins", async ({
  browser,
}) => {
  const ann = await person(browser, "Ann");
  const sessionName = `Picnic ${crypto.randomBytes(3).toString("hex")}`;
  const { session } = await apiCall<{ session: { _id: string } }>(ann, "POST", "/api/sessions", {
    sessionName,
    sessionType: "Friends",
    participants: "3+",
  });
  await ann.page.goto(`/session/${session._id}`);
  const card = ann.page.getByRole("region", { name: "Invite links" });
  await card.getByLabel("Role").selectOption("participant");
  await card.getByLabel("Uses").selectOption("5");
  await card.getByRole("button", { name: "Create invite link" }).click();
  const row = card.getByTestId("invite-link").first();
  await expect(row).toContainText("0 of 5 used");
  const url = (await row.locator("p.font-mono").textContent())!.trim();
  expect(url).toMatch(/\/join\/[A-Za-z0-9_-]{22}$/);

  // The QR code decodes to the link, once Ann has closed the toast that may lie over it.
  const toast = ann.page.getByText("Invite link ready: share it or show its QR code.");
  await toast
    .locator("xpath=ancestor::*[@role='alert' or contains(@class,'Toastify__toast')][1]")
    .getByRole("button", { name: /close/i })
    .click();
  await expect(toast).toBeHidden();
  await row.getByRole("button", { name: "Show QR code" }).click();
  const qr = row.getByTestId("invite-qr");
  await expect(qr).toBeVisible();
  const png = PNG.sync.read(await qr.screenshot());
  const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  expect(decoded?.data).toBe(url);

  // A visitor without an account opens it, signs up on the way, and is in.
  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  const problems = watchConsole(page, { serverErrors: true });
  await page.goto(new URL(url).pathname);
  await expect(page.getByRole("heading", { name: sessionName })).toBeVisible();
  await expect(page.getByText("Ann invited you to")).toBeVisible();
  await page.getByRole("button", { name: "Create an account to join" }).click();
  const zoe = newUser("Zoe");
  await expect(page).toHaveURL(/\/register$/);
  await page.getByLabel("Name").fill(zoe.name);
  await page.getByLabel("Email").fill(zoe.email);
  await page.getByLabel("Password").fill(zoe.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await enterCode(page, await readCode(page.request, zoe.email));
  await expect(page).toHaveURL(new RegExp(`/session/${session._id}$`));
  await expect(page.getByText(`You joined “${sessionName}”.`)).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: sessionName })).toBeVisible();
  // Ann's lobby counts the use.
  await expect(row).toContainText("1 of 5 used");
  expect([...problems, ...ann.problems]).toEqual([]);
  await visitor.close();
});

test("a removed member is taken from the lobby and the cart to their sessions, told why @phone", async ({
  browser,
}) => {
  const { ann, ben, session, sessionName } = await sessionWithBen(browser);
  // Ben has the lobby open in one tab and the cart in another.
  await ben.page.goto(`/session/${session._id}`);
  await expect(ben.page.getByText("You: Participant")).toBeVisible();
  const benCart = await ben.context.newPage();
  await benCart.goto(`/cart/${session._id}`);
  await expect(benCart.getByRole("region", { name: sessionName, exact: true })).toBeVisible();

  await ann.page.goto(`/session/${session._id}`);
  await ann.page.getByRole("button", { name: "Remove Ben" }).click();
  await ann.page
    .getByRole("dialog", { name: "Remove Ben?" })
    .getByRole("button", { name: "Remove" })
    .click();
  await expect(ann.page.getByText("Ben was removed.")).toBeVisible();

  // Without a click, both of Ben's tabs leave the session's pages for his sessions, saying why.
  await Promise.all(
    [ben.page, benCart].map(async (page) => {
      await expect(page).toHaveURL(/\/sessions$/);
      await expect(page.getByText(`You were removed from “${sessionName}”.`)).toBeVisible();
      await expect(page.getByText(sessionName, { exact: true })).toHaveCount(0);
      await expect(page.getByText("You: Participant")).toHaveCount(0);
    }),
  );
  const answer = await ben.page.request.get(`/api/sessions/${session._id}`, {
    headers: { Authorization: `Bearer ${ben.token}` },
  });
  expect(answer.status()).toBe(404);
  expect([...ann.problems, ...ben.problems]).toEqual([]);
});

test("the lobby follows the role live: a hand-over shows in the old creator's other tab and the new creator's lobby @phone", async ({
  browser,
}) => {
  const { ann, ben, session } = await sessionWithBen(browser);
  // Every answer Ann's and Ben's pages get: a lobby calling what its role may not is refused.
  const refused: string[] = [];
  const watchRefusals = (page: Page) =>
    page.on("response", (response) => {
      if (response.url().includes("/api/") && [401, 403].includes(response.status())) {
        refused.push(`${response.status()} ${response.request().method()} ${response.url()}`);
      }
    });
  const annOther = await ann.context.newPage();
  for (const page of [ann.page, annOther, ben.page]) {
    watchRefusals(page);
    await page.goto(`/session/${session._id}`);
  }
  await expect(annOther.getByText("You: Creator")).toBeVisible();
  await expect(annOther.getByRole("region", { name: "Invite links" })).toBeVisible();
  await expect(ben.page.getByText("You: Participant")).toBeVisible();

  await ann.page.getByRole("button", { name: "Make Ben the creator" }).click();
  await ann.page
    .getByRole("dialog", { name: "Hand the session over to Ben?" })
    .getByRole("button", { name: "Hand over" })
    .click();
  await expect(ann.page.getByText(/Ben now runs the session/)).toBeVisible();

  // Ann's other tab drops the creator's tools; Ben's lobby gains them, neither reloaded.
  await expect(annOther.getByText("You: Participant")).toBeVisible();
  await expect(annOther.getByRole("region", { name: "Invite links" })).toHaveCount(0);
  await expect(annOther.getByRole("button", { name: "End Session" })).toHaveCount(0);
  await expect(ben.page.getByText("You: Creator")).toBeVisible();
  await expect(ben.page.getByRole("button", { name: "End Session" })).toBeVisible();
  await expect(ben.page.getByRole("region", { name: "Invite links" })).toBeVisible();
  for (const page of [ann.page, annOther, ben.page]) await page.waitForLoadState("networkidle");
  expect(refused).toEqual([]);
  expect([...ann.problems, ...ben.problems]).toEqual([]);
});

test("the creator hands the session over, then leaves it", async ({ browser }) => {
  const { ann, ben, session, sessionName } = await sessionWithBen(browser);
  await ann.page.goto(`/session/${session._id}`);
  await ann.page.getByRole("button", { name: "Make Ben the creator" }).click();
  await ann.page
    .getByRole("dialog", { name: "Hand the session over to Ben?" })
    .getByRole("button", { name: "Hand over" })
    .click();
  await expect(ann.page.getByText(/Ben now runs the session/)).toBeVisible();
  await expect(ann.page.getByText("You: Participant")).toBeVisible();
  await ann.page.getByRole("button", { name: "Leave Session" }).click();
  await ann.page
    .getByRole("dialog", { name: "Leave this session?" })
    .getByRole("button", { name: "Leave Session" })
    .click();
  await expect(ann.page).toHaveURL(/\/sessions$/);

  // Ben runs it now: he may end it.
  await ben.page.goto(`/session/${session._id}`);
  await expect(ben.page.getByText("You: Creator")).toBeVisible();
  await expect(ben.page.getByRole("heading", { level: 1, name: sessionName })).toBeVisible();
  await expect(ben.page.getByRole("button", { name: "End Session" })).toBeVisible();
  expect([...ann.problems, ...ben.problems]).toEqual([]);
});

test("a deleted account's debt: Cat sees what she owes and deletes anyway, her line leaves Ann's open cart, Ann writes the share off and is settled up @phone", async ({
  browser,
}, testInfo) => {
  const [ann, cat] = await Promise.all([person(browser, "Ann"), person(browser, "Cat")]);
  const tag = crypto.randomBytes(3).toString("hex");
  const { products } = await apiCall<{ products: { _id: string; name: string; stock: number }[] }>(
    ann,
    "GET",
    "/api/products",
  );
  const [bread, tea, jam] = products.filter((p) => p.stock >= 10);
  // Dinner: both add a line, Ann checks out, so Cat owes Ann her share.
  const dinner = await sharedSession(ann, [cat], `Dinner ${tag}`, { passcode: "fig-4" });
  await apiCall(ann, "POST", `/api/carts/${dinner.cartId}/product`, { productId: bread!._id });
  await apiCall(cat, "POST", `/api/carts/${dinner.cartId}/product`, { productId: tea!._id });
  const { order } = await apiCall<{
    order: { _id: string; number: string; split: { userId: string; total: number }[] };
  }>(ann, "POST", `/api/sessions/${dinner._id}/checkout`);
  const owed = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(
    order.split.find((s) => s.userId === cat.id)!.total,
  );
  // Picnic, still open: Cat's line is in Ann's cart.
  const picnicName = `Picnic ${tag}`;
  const picnic = await sharedSession(ann, [cat], picnicName, { passcode: "fig-4" });
  await apiCall(cat, "POST", `/api/carts/${picnic.cartId}/product`, { productId: jam!._id });
  await ann.page.goto(`/cart/${picnic._id}`);
  const catLine = ann.page
    .getByRole("region", { name: picnicName, exact: true })
    .getByRole("row")
    .filter({ hasText: jam!.name });
  await expect(catLine).toBeVisible();

  // Cat deletes her account: the app lists what she owes, with a link, and asks again.
  await cat.page.goto("/profile");
  await cat.page.getByRole("button", { name: "Delete my account" }).click();
  const form = cat.page.getByRole("form", { name: "Delete my account" });
  await form.getByLabel("Your password").fill(PASSWORD);
  await form.getByRole("button", { name: "Delete my account for good" }).click();
  const dialog = cat.page.getByRole("dialog", { name: "You have 1 unsettled share" });
  await expect(
    dialog.getByRole("link", { name: `You owe Ann ${owed} on order ${order.number}` }),
  ).toHaveAttribute("href", `/orders/${order._id}`);
  await cat.page.screenshot({ path: `/tmp/wt-a-delete-dialog-${testInfo.project.name}.png` });
  await dialog.getByRole("button", { name: "Delete anyway" }).click();
  await expect(cat.page.getByText("Your account was deleted.")).toBeVisible();
  await expect(cat.page).toHaveURL(/\/$/);

  // Ann's open cart loses Cat's line live, and the feed says why.
  await expect(catLine).toHaveCount(0);
  await expect(
    ann.page.getByText(`Cat's line ${jam!.name} was removed (account deleted)`).first(),
  ).toBeVisible();

  // The order keeps Cat's share, marked; Ann writes it off and is settled up.
  await ann.page.goto(`/orders/${order._id}`);
  const share = ann.page.getByTestId("order-share").filter({ hasText: "Deleted user" });
  await expect(share).toContainText("Unpaid");
  await expect(share.getByRole("button", { name: "Cat's share: Paid in cash" })).toBeVisible();
  await ann.page.screenshot({
    path: `/tmp/wt-a-order-settle-${testInfo.project.name}.png`,
    fullPage: true,
  });
  await share.getByRole("button", { name: "Cat's share: Write off" }).click();
  await ann.page
    .getByRole("dialog", { name: "Write off Cat's share?" })
    .getByRole("button", { name: "Write it off" })
    .click();
  await expect(ann.page.getByText("Everyone is settled up.")).toBeVisible();
  await expect(share).toContainText("Written off");
  await ann.page.goto("/balances");
  await expect(ann.page.getByText("You're all settled up.")).toBeVisible();
  expect([...ann.problems, ...cat.problems]).toEqual([]);
});
