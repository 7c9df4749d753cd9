import crypto from "node:crypto";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { BASE_URL } from "../playwright.config.ts";
import { apiCall, cartOf, person, sharedSession, type Product } from "./fixtures.ts";

/** Whether two boxes share any pixel. */
function overlap(a: DOMRectReadOnly, b: DOMRectReadOnly): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

const box = async (locator: Locator) => {
  const found = await locator.boundingBox();
  expect(found, "an element on screen").not.toBeNull();
  return found as DOMRectReadOnly;
};

/** Whether the element is cut off: by the viewport, or by an ancestor that clips its overflow. */
function clipped(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const own = el.getBoundingClientRect();
    if (own.width === 0 || own.left < 0 || own.right > window.innerWidth) return true;
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX === "visible") continue;
      const frame = up.getBoundingClientRect();
      if (own.left < frame.left - 0.5 || own.right > frame.right + 0.5) return true;
    }
    return false;
  });
}

/** The header's bell and its menu button: what a toast must never cover. */
const headerControls = (page: Page) => [
  page.getByRole("banner").getByRole("button", { name: /^Notifications, / }),
  page.getByRole("banner").getByRole("button", { name: "Menu" }),
];

test("on a phone: a waiting request on My Cart, toasts off the header, (you) in full, an automatic checkout, blocked notifications @phone", async ({
  browser,
}) => {
  // A long name, so the split's row is as tight as it gets. No motion: boxes are read at rest.
  const [ann, ben] = await Promise.all([
    person(browser, "Ann", { reducedMotion: "reduce" }),
    person(browser, "Bartholomew", { reducedMotion: "reduce" }),
  ]);
  const tag = crypto.randomBytes(3).toString("hex");
  const dinner = `Dinner ${tag}`;
  const session = await sharedSession(ann, [], dinner);

  // Ben asks to join by code: until Ann answers, My Cart says his request waits and leads to it.
  await apiCall(ben, "POST", "/api/sessions/join/code", {
    sessionCode: session.sessionCode,
    passcode: "sesame-42",
  });
  await ben.page.goto("/cart");
  await expect(ben.page.getByText(`Your request to join “${dinner}” is waiting`)).toBeVisible();
  await expect(ben.page.getByText("You have no carts yet.")).toHaveCount(0);
  await ben.page.getByRole("link", { name: "See your request" }).click();
  await expect(ben.page).toHaveURL(/\/sessions#waiting-requests$/);
  const waiting = ben.page.getByRole("region", { name: "Waiting for approval" });
  await expect(waiting.getByRole("heading", { name: "Waiting for approval" })).toBeInViewport();
  await expect(
    waiting.getByRole("button", { name: `Withdraw request to join ${dinner}` }),
  ).toBeVisible();

  // Ann lets him in; each adds a line at a different price.
  await apiCall(ann, "POST", `/api/sessions/approve/${session.sessionCode}`, { userId: ben.id });
  const { products } = await apiCall<{ products: Product[] }>(ann, "GET", "/api/products");
  const [first, second] = products
    .filter((p) => p.stock >= 5)
    .sort((a, b) => a.price - b.price)
    .filter((p, i, all) => i === 0 || p.price !== all[i - 1]!.price);
  await apiCall(ann, "POST", `/api/carts/${session.cartId}/product`, { productId: second!._id });
  await apiCall(ben, "POST", `/api/carts/${session.cartId}/product`, { productId: first!._id });

  // Ben marks himself done: the toast shows below the header, off its bell and menu.
  await ben.page.goto(`/cart/${session._id}`);
  const cart = cartOf(ben.page, dinner);
  await cart.getByRole("button", { name: "I'm done" }).click();
  const toast = ben.page.locator(".Toastify__toast", { hasText: "Marked as done." });
  await expect(toast).toBeVisible();
  // Resting the pointer on it holds it open (it closes by itself after a few seconds).
  await toast.hover();
  const toastBox = await box(toast);
  for (const control of headerControls(ben.page)) {
    await expect(control).toBeVisible();
    expect(overlap(toastBox, await box(control)), "the toast covers the header").toBe(false);
  }
  expect(toastBox.y).toBeGreaterThan((await box(ben.page.getByRole("banner"))).height);

  // Ann splits equally: Ben's share moves, his mark clears, and "(you)" stays whole beside
  // "Share changed".
  await apiCall(ann, "PUT", `/api/sessions/${session._id}/split-policy`, {
    mode: "equal",
    weights: {},
    fees: "equal",
  });
  const mine = cart
    .getByRole("list", { name: "Running totals" })
    .getByRole("listitem")
    .filter({ hasText: "(you)" });
  await expect(mine.getByText("Share changed")).toBeVisible();
  const you = mine.getByText("(you)");
  // Below the lines (and what the cart offers to add), the totals may start below the fold.
  await you.scrollIntoViewIfNeeded();
  await expect(you).toBeInViewport({ ratio: 1 });
  expect(await clipped(you), "(you) is cut off").toBe(false);

  // A second session with a deadline a few seconds away and automatic checkout; its cart is empty,
  // so it stays closed: Ben reads that it is checked out automatically, not that Ann does it.
  const lunch = `Lunch ${tag}`;
  const other = await sharedSession(ann, [ben], lunch);
  const closesAt = new Date(Date.now() + 5_000).toISOString();
  await apiCall(ann, "PUT", `/api/sessions/${other._id}/deadline`, {
    closesAt,
    remindAt: [],
    autoCheckout: true,
  });
  await ben.page.goto(`/cart/${other._id}`);
  const notice = cartOf(ben.page, lunch).getByTestId("deadline-notice");
  await expect(notice).toContainText(
    /It is checked out automatically at .+, unless it is empty\./,
    {
      timeout: 20_000,
    },
  );
  await expect(notice).toContainText("The cart closed at");
  await expect(notice).not.toContainText("checks out or reopens");

  // Notifications allowed for the page, but this browser's push service refuses (no network
  // here): a plain sentence, never the browser's "Registration failed - …".
  await ben.context.grantPermissions(["notifications"], { origin: BASE_URL });
  await ben.page.goto("/notifications");
  const device = ben.page.getByRole("region", { name: "Notifications on this device" });
  // Subscribing waits for the service worker, which first stores the app for offline use: on a
  // busy machine that alone can take longer than the app waits before it says to reload.
  await ben.page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await device.getByRole("button", { name: "Turn on" }).click();
  const refused = ben.page
    .locator(".Toastify__toast")
    .filter({ hasText: /Notifications are blocked for this site|couldn't turn on notifications/ });
  await expect(refused).toBeVisible({ timeout: 30_000 });
  await expect(ben.page.getByText(/Registration failed/)).toHaveCount(0);

  for (const who of [ann, ben]) expect(who.problems).toEqual([]);
  await Promise.all([ann.context.close(), ben.context.close()]);
});
