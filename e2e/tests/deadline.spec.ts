import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { apiCall, cartOf, person, sharedSession } from "./fixtures.ts";

/** How the web app writes a deadline (shared/deadline-text.ts), for a reader in `timeZone`. */
function inZone(iso: string, timeZone: string): RegExp {
  const text = new Intl.DateTimeFormat("en-US", {
    weekday: "short",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
    timeZone,
  }).format(new Date(iso));
  // Node's ICU and the browser's may space "6:00 PM" differently (a narrow no-break space).
  const pattern = text
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    .replace(/[\s\u202f]+/g, "[\\s\\u202f]+");
  return new RegExp(pattern);
}

/** "2026-11-28T18:00": tomorrow at 18:00 on Vienna's calendar. */
function tomorrowAtSixInVienna(): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: "Europe/Vienna",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date(Date.now() + 24 * 3_600_000));
  return `${parts}T18:00`;
}

test("a deadline: Ann sets it in Vienna's time, Ben reads it in New York's, and his cart closes live when it passes @phone", async ({
  browser,
}) => {
  const [ann, ben] = await Promise.all([
    person(browser, "Ann", { timezoneId: "Europe/Vienna" }),
    person(browser, "Ben", { timezoneId: "America/New_York" }),
  ]);
  const sessionName = `Deadline ${crypto.randomBytes(3).toString("hex")}`;
  const session = await sharedSession(ann, [ben], sessionName);
  const { products } = await apiCall<{
    products: Array<{ _id: string; name: string; stock: number }>;
  }>(ben, "GET", "/api/products");
  const product = products.find((p) => p.stock >= 5)!;
  await apiCall(ben, "POST", `/api/carts/${session.cartId}/product`, { productId: product._id });

  // Ann, in her lobby: the Deadline card names her zone; 24 h and 1 h reminders are ticked.
  await ann.page.goto(`/session/${session._id}`);
  const card = ann.page.getByTestId("deadline-card");
  await expect(card.getByText("(Europe/Vienna)")).toBeVisible();
  await expect(card.getByRole("checkbox", { name: "24 h" })).toBeChecked();
  await expect(card.getByRole("checkbox", { name: "1 h", exact: true })).toBeChecked();
  await card.getByLabel(/The cart closes at/).fill(tomorrowAtSixInVienna());
  await card.getByRole("button", { name: "Save deadline" }).click();
  const notice = card.getByTestId("deadline-notice");
  await expect(notice).toContainText(/6:00[\s\u202f]PM/);
  await expect(notice).toContainText(/closes in \d+ h/);
  const { session: saved } = await apiCall<{ session: { deadline: { closesAt: string } } }>(
    ann,
    "GET",
    `/api/sessions/${session._id}`,
  );
  const { closesAt } = saved.deadline;
  await expect(notice).toContainText(inZone(closesAt, "Europe/Vienna"));

  // Ben, in New York: the same instant in his time (noon, most of the year), on his cart page.
  await ben.page.goto(`/cart/${session._id}`);
  const benCart = cartOf(ben.page, sessionName);
  const benNotice = benCart.getByTestId("deadline-notice");
  await expect(benNotice).toContainText(inZone(closesAt, "America/New_York"));
  await expect(benNotice).not.toContainText(/6:00[\s\u202f]PM/);
  const increase = benCart.getByRole("button", { name: `Increase quantity of ${product.name}` });
  await expect(increase).toBeVisible();

  // Signing in in New York made it his account's zone, which mails and receipts state times in.
  const profile = await apiCall<{ timeZone: string }>(ben, "GET", "/api/profile/me");
  expect(profile.timeZone).toBe("America/New_York");

  // Ann moves it to a few seconds from now through the API: Ben's page follows live, then closes.
  // Its 24 h and 1 h reminders' times have gone: one reminder goes at once, and Ann's card says so.
  const soon = new Date(Date.now() + 6_000).toISOString();
  await apiCall(ann, "PUT", `/api/sessions/${session._id}/deadline`, { closesAt: soon });
  const reminders = card.getByTestId("reminder-status");
  await expect(reminders).toContainText("None still to come.");
  await expect(reminders).toContainText(
    "When the deadline was set, the 24 h and 1 h reminders' times had already passed: one reminder went out at once",
  );
  await expect(benNotice).toContainText("closes in less than a minute");
  await expect(benNotice).toContainText(
    new RegExp(`The cart closed at ${inZone(soon, "America/New_York").source}\\.`),
    { timeout: 20_000 },
  );
  await expect(benNotice).toContainText("Ann checks out or reopens it.");
  await expect(increase).toHaveCount(0);
  await expect(benCart.getByRole("button", { name: `Remove ${product.name}` })).toHaveCount(0);
  // The server agrees: a change now is refused with the deadline in its message.
  const refused = await ben.page.request.post(`/api/carts/${session.cartId}/product`, {
    headers: { Authorization: `Bearer ${ben.token}` },
    data: { productId: product._id },
  });
  expect(refused.status()).toBe(409);
  expect(await refused.json()).toMatchObject({
    code: "CART_LOCKED",
    message: expect.stringContaining("The cart closed at"),
  });

  // Ann's lobby, live as well: her next steps, check out or reopen.
  await expect(notice).toContainText(/The cart closed at/, { timeout: 20_000 });
  await expect(notice.getByRole("link", { name: "Check out" })).toBeVisible();
  await expect(notice.getByRole("button", { name: "Reopen" })).toBeVisible();

  for (const who of [ann, ben]) expect(who.problems).toEqual([]);
  await Promise.all([ann.context.close(), ben.context.close()]);
});
