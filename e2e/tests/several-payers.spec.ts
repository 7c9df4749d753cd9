import crypto from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { apiCall, person, sharedSession, type Product } from "./fixtures.ts";

interface Order {
  _id: string;
  number: string;
  total: number;
  split: { userId: string; name: string; total: number; credit: number; status: string }[];
  parts: { debtor: string; payer: string; amount: number; open: number; credit: number }[];
}
interface Balance {
  user: { _id: string; name: string };
  amount: number;
}
interface Planned {
  from: { _id: string; name: string };
  to: { _id: string; name: string };
  amount: number;
}

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const money = (n: number) => usd.format(n);

test("two payers and changes after checkout: the order page, its history, Balances and the plan all read one book", async ({
  browser,
}) => {
  const [ann, ben, cat] = await Promise.all([
    person(browser, "Ann"),
    person(browser, "Ben"),
    person(browser, "Cat"),
  ]);
  const sessionName = `Two cards ${crypto.randomBytes(3).toString("hex")}`;
  const session = await sharedSession(ann, [ben, cat], sessionName);
  const { products } = await apiCall<{ products: Product[] }>(ann, "GET", "/api/products");
  const [annItem, benLost, benKept, catItem] = products.filter((p) => p.stock >= 10);
  for (const [who, p] of [
    [ann, annItem],
    [ben, benLost],
    [ben, benKept],
    [cat, catItem],
  ] as const) {
    await apiCall(who, "POST", `/api/carts/${session.cartId}/product`, { productId: p!._id });
  }
  // Ann and Ben paid the shop with two cards: Ann about five sixths, Ben the rest.
  const { total } = await apiCall<{ total: number }>(
    ann,
    "GET",
    `/api/sessions/${session._id}/summary`,
  );
  const annPaid = Math.round(total * 500) / 600;
  const annAmount = Math.round(annPaid * 100) / 100;
  const { order } = await apiCall<{ order: Order }>(
    ann,
    "POST",
    `/api/sessions/${session._id}/checkout`,
    {
      payers: [
        { userId: ann.id, amount: annAmount },
        { userId: ben.id, amount: Math.round((total - annAmount) * 100) / 100 },
      ],
    },
  );
  const read = async () =>
    (await apiCall<{ order: Order }>(ann, "GET", `/api/orders/${order._id}`)).order;
  const part = (o: Order, debtor: string, payer: string) =>
    o.parts.find((p) => p.debtor === debtor && p.payer === payer)!;

  // Ben pays Ann what he owes her and says so; Ann confirms it.
  await Promise.all([ann, ben].map((p) => p.page.goto(`/orders/${order._id}`)));
  await expect(ben.page.getByText("Ann and Ben paid the shop.")).toBeVisible();
  await ben.page.getByRole("button", { name: "I've paid my share" }).click();
  await expect(ben.page.getByText("Paid, awaiting confirmation")).toBeVisible();
  await ann.page.getByRole("button", { name: "Confirm received from Ben" }).click();
  const paidToAnn = part(order, ben.id, ann.id).amount;
  await expect(history(ann.page)).toContainText(
    `Ann confirmed Ben's payment of ${money(paidToAnn)}`,
  );

  // The shop never delivered one of Ben's items: Ann records it, and Ben's part owed to Ann
  // shrinks. What he paid her beyond it is his credit with her (his own part of his share, which
  // he paid the shop himself, is no part of it).
  const form = ann.page.getByRole("form", { name: "Record a change" });
  await form.getByLabel("What changed").selectOption({ label: "Not delivered" });
  await form.getByLabel("Line").selectOption({ label: `${benLost!.name} (Ben)` });
  await form.getByRole("button", { name: "Record change" }).click();
  await expect(ann.page.getByRole("list", { name: "Changes after checkout" })).toContainText(
    `${benLost!.name}: not delivered`,
  );
  const changed = await read();
  const benToAnn = part(changed, ben.id, ann.id);
  expect(benToAnn.amount).toBeLessThan(paidToAnn);
  const credit = Math.round((paidToAnn - benToAnn.amount) * 100) / 100;
  expect(benToAnn.credit).toBe(credit);
  const benCard = ben.page.getByTestId("order-share").filter({ hasText: "(you)" });
  await expect(benCard).toContainText(`Credit ${money(credit)}`);
  await expect(history(ben.page)).toContainText(/Ben owes Ann \$[\d.,]+ less · Not delivered/);

  // Ben writes off what Cat owes him; what Cat owes Ann stays open. The dialog says how much of
  // what Cat still owes it is.
  const catToBen = part(changed, cat.id, ben.id).open;
  const catToAnn = part(changed, cat.id, ann.id).open;
  await ben.page.getByRole("button", { name: "Cat's share: Write off" }).click();
  const dialog = ben.page.getByRole("dialog", { name: "Write off what Cat owes you?" });
  await expect(dialog).toContainText(
    `Cat will no longer owe you ${money(catToBen)} (of ${money(catToBen + catToAnn)} open on the share)`,
  );
  await dialog.getByRole("button", { name: "Write it off" }).click();
  await expect(history(ben.page)).toContainText(`Ben wrote off the ${money(catToBen)} Cat owed`);
  const settled = await read();
  expect(part(settled, cat.id, ben.id).open).toBe(0);
  expect(part(settled, cat.id, ann.id).open).toBe(catToAnn);

  // Balances and the plan read the same book: Ann owes Ben his credit back, Cat owes Ann.
  const balances = async (who: typeof ann) =>
    (await apiCall<{ balances: Balance[] }>(who, "GET", "/api/balances")).balances;
  const annBalances = await balances(ann);
  expect(annBalances.find((b) => b.user._id === ben.id)!.amount).toBe(-credit);
  expect(annBalances.find((b) => b.user._id === cat.id)!.amount).toBe(catToAnn);
  await ann.page.goto("/balances");
  // Largest first.
  const rows = [`Cat owes you ${money(catToAnn)}`, `You owe Ben ${money(credit)}`];
  await expect(ann.page.getByTestId("balance")).toContainText(
    catToAnn >= credit ? rows : rows.reverse(),
  );
  const { transfers } = await apiCall<{ transfers: Planned[] }>(
    ann,
    "GET",
    "/api/balances/settle-plan",
  );
  const plan = ann.page.getByTestId("planned-transfer");
  await expect(plan).toHaveCount(transfers.length);
  for (const t of transfers) {
    const from = t.from._id === ann.id ? "You pay" : `${t.from.name} pays`;
    const to = t.to._id === ann.id ? "you" : t.to.name;
    await expect(plan.filter({ hasText: `${from} ${to} ${money(t.amount)}` })).toHaveCount(1);
  }
  // The plan settles every balance: what it moves nets each person to zero.
  const net = new Map<string, number>();
  for (const t of transfers) {
    net.set(t.from._id, (net.get(t.from._id) ?? 0) + Math.round(t.amount * 100));
    net.set(t.to._id, (net.get(t.to._id) ?? 0) - Math.round(t.amount * 100));
  }
  expect(net.get(cat.id) ?? 0).toBe(Math.round(catToAnn * 100));

  for (const p of [ann, ben, cat]) expect(p.problems).toEqual([]);
});

/** The order page's history of its book. */
function history(page: Page) {
  return page.getByRole("list", { name: "History" });
}
