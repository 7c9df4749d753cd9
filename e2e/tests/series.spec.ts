import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { apiCall, checkOutFromSummary, sharedSession, person, type Product } from "./fixtures.ts";

test("Ann makes the session weekly and keeps a staple; after checkout Ann and Ben land in the new session with it @phone", async ({
  browser,
}) => {
  const [ann, ben] = await Promise.all([person(browser, "Ann"), person(browser, "Ben")]);
  const sessionName = `Weekly shop ${crypto.randomBytes(3).toString("hex")}`;
  const session = await sharedSession(ann, [ben], sessionName, { passcode: "weekly-7" });
  const { products } = await apiCall<{ products: Product[] }>(ann, "GET", "/api/products");
  const [bread, wine] = products.filter((p) => p.stock >= 10);
  await apiCall(ann, "POST", `/api/carts/${session.cartId}/product`, { productId: bread!._id });
  await apiCall(ben, "POST", `/api/carts/${session.cartId}/product`, { productId: wine!._id });

  // Ann makes it repeat every Friday at 18:00, in her own time zone.
  await ann.page.goto(`/session/${session._id}`);
  const repeat = ann.page.getByTestId("series");
  await expect(repeat).toContainText("This session does not repeat.");
  await repeat.getByRole("radio", { name: "Every week" }).check();
  await repeat.getByRole("combobox", { name: "On" }).selectOption("FR");
  await repeat.getByLabel("At").fill("18:00");
  await expect(repeat).toContainText("Time zone:");
  await repeat.getByRole("button", { name: "Save" }).click();
  await expect(repeat.getByTestId("series-sentence")).toContainText(
    /Repeats every Friday at 18:00 · next \d{1,2} \w{3}/,
  );

  // She keeps the bread for next week from the cart page.
  await ann.page.goto(`/cart/${session._id}`);
  const keep = ann.page.getByRole("button", { name: `Keep for next week: ${bread!.name}` });
  await expect(keep).toHaveAttribute("aria-pressed", "false");
  await keep.click();
  await expect(keep).toHaveAttribute("aria-pressed", "true");
  await expect(ann.page.getByText("Staple", { exact: true })).toBeVisible();
  // Ben's wine is his own line: Ann, the creator, could pin it, Ben sees only his own.
  await ben.page.goto(`/cart/${session._id}`);
  await expect(
    ben.page.getByRole("button", { name: `Keep for next week: ${wine!.name}` }),
  ).toBeVisible();
  await expect(
    ben.page.getByRole("button", { name: `Keep for next week: ${bread!.name}` }),
  ).toHaveCount(0);

  // Ann checks out; Ben waits in the lobby.
  await ben.page.goto(`/session/${session._id}`);
  await checkOutFromSummary(ann.page, session._id);

  // Both are told the next session started, and follow the link to it. Side by side: the toast
  // closes after 10 s, and on a busy machine one person's checks can take longer than that.
  const follow = async (who: typeof ann) => {
    const link = who.page.getByRole("link", { name: "Open the new session" });
    await expect(link).toBeVisible({ timeout: 30_000 });
    await link.click();
    await expect(who.page).toHaveURL(/\/session\/[0-9a-f-]{36}$/);
    expect(who.page.url()).not.toContain(session._id);
    await expect(who.page.getByRole("heading", { level: 1, name: sessionName })).toBeVisible();
    await expect(who.page.getByTestId("series")).toContainText("Repeats every Friday at 18:00");
    await expect(who.page.getByRole("link", { name: /Previous session/ })).toBeVisible();
  };
  await Promise.all([follow(ben), follow(ann)]);

  // The new cart holds the staple (and only it), still marked.
  const newId = ben.page.url().split("/").pop()!;
  await ben.page.goto(`/cart/${newId}`);
  const cart = ben.page.getByRole("region", { name: sessionName, exact: true });
  const items = cart.getByRole("button", { name: `Items in ${sessionName}` });
  // The cart's lines (Buy again, below them, offers last week's other products).
  const lines = cart.getByRole("table", { name: `Items in ${sessionName}` });
  // On a phone the cart opens folded: unfold it (again, should a refetch fold it meanwhile).
  await expect(async () => {
    if ((await items.getAttribute("aria-expanded")) !== "true") await items.click();
    await expect(lines.getByText("Staple", { exact: true })).toBeVisible({ timeout: 2_000 });
    await expect(lines.getByText(bread!.name, { exact: true }).first()).toBeVisible({
      timeout: 1_000,
    });
    await expect(lines.getByText(wine!.name, { exact: true })).toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  expect([...ann.problems, ...ben.problems]).toEqual([]);
});
