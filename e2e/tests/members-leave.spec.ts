import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { apiCall, checkOutFromSummary, person, sharedSession, type Product } from "./fixtures.ts";

interface Order {
  split: { userId: string; name: string; total: number }[];
  lines: { addedBy: { name: string }; name: string }[];
  total: number;
}

test("a removed member's lines go with them, and a member who leaves gives theirs away: nobody outside is billed", async ({
  browser,
}) => {
  const [ann, ben, cat] = await Promise.all([
    person(browser, "Ann"),
    person(browser, "Ben"),
    person(browser, "Cat"),
  ]);
  const sessionName = `Leaving ${crypto.randomBytes(3).toString("hex")}`;
  const session = await sharedSession(ann, [ben, cat], sessionName);
  const { products } = await apiCall<{ products: Product[] }>(ann, "GET", "/api/products");
  const [bread, milk, tea, jam] = products.filter((p) => p.stock >= 10);
  const add = (who: typeof ann, product: Product, quantity = 1) =>
    apiCall(who, "POST", `/api/carts/${session.cartId}/product`, {
      productId: product._id,
      quantity,
    });
  await add(ann, bread!);
  await add(cat, milk!, 2);
  await add(cat, tea!);
  await add(ben, jam!);

  // Ann removes Cat: the dialog names Cat's two lines and asks what becomes of them.
  await ann.page.goto(`/session/${session._id}`);
  await ann.page.getByRole("button", { name: "Remove Cat" }).click();
  const dialog = ann.page.getByRole("dialog", { name: "Remove Cat?" });
  await expect(dialog.getByText("Cat added these 2 items to the cart:")).toBeVisible();
  await expect(dialog.getByRole("listitem")).toHaveText([`2 × ${milk!.name}`, tea!.name]);
  await expect(dialog.getByRole("radio", { name: "Remove them from the cart" })).toBeChecked();
  await dialog.getByRole("button", { name: "Remove" }).click();
  await expect(ann.page.getByText("Cat was removed.")).toBeVisible();

  // Ben leaves from his sessions page and gives his line to Ann.
  await ben.page.goto("/sessions");
  await ben.page.getByRole("button", { name: `Leave ${sessionName}` }).click();
  const leave = ben.page.getByRole("dialog", { name: `Leave “${sessionName}”?` });
  await expect(leave.getByText("You added this item to the cart:")).toBeVisible();
  await leave.getByRole("radio", { name: "Give it to" }).check();
  await expect(leave.getByRole("combobox", { name: "Who gets the items" })).toHaveValue(ann.id);
  await leave.getByRole("button", { name: "Leave Session" }).click();
  await expect(ben.page.getByText("You left the session")).toBeVisible();

  // Ann's cart now holds her bread and Ben's jam, both hers; the order bills Ann alone.
  await ann.page.goto(`/session-summary/${session._id}`);
  await expect(ann.page.getByText(milk!.name)).toHaveCount(0);
  await expect(ann.page.getByText(jam!.name).first()).toBeVisible();
  const orderId = await checkOutFromSummary(ann.page, session._id);
  const { order } = await apiCall<{ order: Order }>(ann, "GET", `/api/orders/${orderId}`);
  expect(order.split.map((s) => s.name)).toEqual(["Ann"]);
  expect(order.split[0]!.total).toBe(order.total);
  expect(order.lines.map((l) => l.addedBy.name)).toEqual(["Ann", "Ann"]);

  // Cat sees no order and owes nothing.
  const mine = await apiCall<{ orders: unknown[] }>(cat, "GET", "/api/orders");
  expect(mine.orders).toEqual([]);
  for (const p of [ann, ben, cat]) expect(p.problems).toEqual([]);
});
