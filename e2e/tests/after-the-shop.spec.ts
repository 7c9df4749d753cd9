import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import jsqr from "jsqr";
import { PNG } from "pngjs";
import { EUR_BASE_URL } from "../playwright.config.ts";
import { apiCall, pdfText, person, sharedSession, type Person, type Product } from "./fixtures.ts";

// jsqr is CommonJS whose typings say `export default`: its default import is the module object.
const jsQR = jsqr.default;

// The EPC QR code exists only in euros: this journey runs on the second server (CURRENCY=EUR).
test.use({ baseURL: EUR_BASE_URL });

interface Order {
  _id: string;
  number: string;
  total: number;
  originalTotal: number;
  lines: { name: string; addedBy: { _id: string } }[];
  split: { userId: string; name: string; total: number; originalTotal: number; status: string }[];
}

const eur = new Intl.NumberFormat("en-US", { style: "currency", currency: "EUR" });
const money = (cents: number) => eur.format(cents / 100);
const cents = (amount: number) => Math.round(amount * 100);

/**
 * What each member's share should be, from the prices of the lines each added (the default
 * policy: by adder, fees in proportion): fees 1 % of the subtotal and tax 13 % of subtotal plus
 * fees, each rounded half up; each member's exact total (their subtotal's proportion of the
 * whole) rounded once with the largest-remainder method, ties by the 32-bit FNV-1a hash of
 * `${cartId}:${userId}`. Written out here so the journey checks the server's figures, not the
 * server against itself.
 */
function expectedShares(lines: { by: string; cents: number }[], members: string[], cartId: string) {
  const subtotals = new Map(members.map((id) => [id, 0]));
  for (const l of lines) subtotals.set(l.by, subtotals.get(l.by)! + l.cents);
  const subtotal = [...subtotals.values()].reduce((s, x) => s + x, 0);
  const fees = Math.floor((subtotal + 50) / 100);
  const tax = Math.floor(((subtotal + fees) * 13 + 50) / 100);
  const total = subtotal + fees + tax;
  const fnv1a = (text: string) => {
    let hash = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    return hash >>> 0;
  };
  const parts = members.map((id) => ({
    id,
    floor: Math.floor((total * subtotals.get(id)!) / subtotal),
    rest: (total * subtotals.get(id)!) % subtotal,
    tie: fnv1a(`${cartId}:${id}`),
  }));
  let left = total - parts.reduce((s, p) => s + p.floor, 0);
  parts.sort((a, b) => b.rest - a.rest || a.tie - b.tie || (a.id < b.id ? -1 : 1));
  return new Map(parts.map((p) => [p.id, p.floor + (left-- > 0 ? 1 : 0)]));
}

const IBAN = "DE89370400440532013000";
const ACCOUNT_NAME = "Ann Lindqvist";

test("after the shop: the payee records a missing and a substituted line, Ben's share drops live, he pays by the EPC QR code, one transfer is left and the receipt lists the changes", async ({
  browser,
}) => {
  const [ann, ben, cat] = await Promise.all([
    person(browser, "Ann"),
    person(browser, "Ben"),
    person(browser, "Cat"),
  ]);
  const sessionName = `Market run ${crypto.randomBytes(3).toString("hex")}`;
  const session = await sharedSession(ann, [ben, cat], sessionName);

  // Ann says how she likes to be paid: her profile is still empty, so /profile sends her to the
  // profile editor, which has the card too. The IBAN as banks print it, with spaces.
  await ann.page.goto("/profile");
  await expect(ann.page).toHaveURL(/\/editme$/);
  const details = ann.page.getByRole("region", { name: "How you like to be paid" });
  await details.getByLabel("IBAN").fill("DE89 3704 0044 0532 0130 00");
  await details.getByLabel("Account name").fill(ACCOUNT_NAME);
  await details.getByRole("button", { name: "Save payment details" }).click();
  await expect(ann.page.getByText("Payment details saved.")).toBeVisible();
  await expect(details.getByLabel("IBAN")).toHaveValue(IBAN);

  // Setup through the API: everyone adds, Ann checks out. Ben's two lines are the ones the shop
  // gets wrong; Cat's share stays open to the end.
  const { products } = await apiCall<{ products: Product[] }>(ann, "GET", "/api/products");
  const [annLine, benMissing, benSubstituted, catLine] = products.filter((p) => p.stock >= 10);
  const adds: [Person, Product][] = [
    [ann, annLine!],
    [ben, benMissing!],
    [ben, benSubstituted!],
    [cat, catLine!],
  ];
  for (const [who, product] of adds) {
    await apiCall(who, "POST", `/api/carts/${session.cartId}/product`, { productId: product._id });
  }
  const members = [ann.id, ben.id, cat.id];
  const before = expectedShares(
    adds.map(([who, p]) => ({ by: who.id, cents: cents(p.price) })),
    members,
    session.cartId,
  );
  const { order } = await apiCall<{ order: Order }>(
    ann,
    "POST",
    `/api/sessions/${session._id}/checkout`,
  );
  for (const share of order.split) expect(cents(share.total)).toBe(before.get(share.userId));

  // Both have the order open. Ben's page is marked so a reload would show.
  await Promise.all([ann, ben].map((p) => p.page.goto(`/orders/${order._id}`)));
  await expect(ann.page.getByRole("heading", { level: 1, name: order.number })).toBeVisible();
  await expect(ben.page.getByText(`Pay Ann your share, then say so here.`)).toBeVisible();
  await ben.page.evaluate(() => ((window as { sameDocument?: boolean }).sameDocument = true));

  // Ann records what the shop did: one of Ben's items never came, the other came as something
  // cheaper.
  const substitute = {
    name: "Store-brand instead",
    cents: Math.max(1, Math.floor(cents(benSubstituted!.price) / 2)),
  };
  const form = ann.page.getByRole("form", { name: "Record a change" });
  await form.getByLabel("What changed").selectOption({ label: "Not delivered" });
  await form.getByLabel("Line").selectOption({ label: `${benMissing!.name} (Ben)` });
  await form.getByRole("button", { name: "Record change" }).click();
  const changes = ann.page.getByRole("list", { name: "Changes after checkout" });
  await expect(changes).toContainText(`${benMissing!.name}: not delivered`);

  const afterMissing = expectedShares(
    adds
      .filter(([, p]) => p !== benMissing)
      .map(([who, p]) => ({ by: who.id, cents: cents(p.price) })),
    members,
    session.cartId,
  );
  const benBefore = before.get(ben.id)!;
  // Ben sees it without a reload: his share, and the sentence saying it changed.
  await expect(
    ben.page.getByText(
      `Your share changed from ${money(benBefore)} to ${money(afterMissing.get(ben.id)!)}.`,
    ),
  ).toBeVisible();

  await form.getByLabel("What changed").selectOption({ label: "Substituted" });
  await form.getByLabel("Line").selectOption({ label: `${benSubstituted!.name} (Ben)` });
  await form.getByLabel("What came instead").fill(substitute.name);
  // Typed as a European would, with the sign.
  await form.getByLabel("Unit price").fill(`€${(substitute.cents / 100).toFixed(2)}`);
  await form.getByRole("button", { name: "Record change" }).click();
  await expect(changes).toContainText(
    `${benSubstituted!.name}: substituted by ${substitute.name} at ${money(substitute.cents)}`,
  );

  const after = expectedShares(
    adds
      .filter(([, p]) => p !== benMissing)
      .map(([who, p]) => ({
        by: who.id,
        cents: p === benSubstituted ? substitute.cents : cents(p.price),
      })),
    members,
    session.cartId,
  );
  const benOwes = after.get(ben.id)!;
  const catOwes = after.get(cat.id)!;
  expect(benOwes).toBeLessThan(benBefore);
  await expect(
    ben.page.getByText(`Your share changed from ${money(benBefore)} to ${money(benOwes)}.`),
  ).toBeVisible();
  const benCard = ben.page.getByTestId("order-share").filter({ hasText: "(you)" });
  await expect(benCard).toContainText(money(benOwes));
  expect(await ben.page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(
    true,
  );
  // The server agrees to the cent, for everyone.
  const { order: adjusted } = await apiCall<{ order: Order }>(
    ann,
    "GET",
    `/api/orders/${order._id}`,
  );
  for (const share of adjusted.split) expect(cents(share.total)).toBe(after.get(share.userId));

  // Ben's pay panel: what he owes, the order number as reference, and the EPC QR code his banking
  // app would scan, read back here as a phone would read it.
  const pay = ben.page.getByRole("region", { name: "Pay Ann" });
  await expect(pay).toContainText(money(benOwes));
  await expect(pay).toContainText(order.number);
  await expect(pay).toContainText("DE89 3704 0044 0532 0130 00");
  const qr = pay.getByTestId("epc-qr");
  await expect(qr).toBeVisible();
  // EPC069-12 version 002: service tag, version, UTF-8, SEPA credit transfer, no BIC, the name,
  // the IBAN, "EUR" and the amount with a dot and two decimals, no purpose, no structured
  // reference, the order number as the unstructured one. Polled: the code is redrawn after the
  // amount changes, so for a moment it may still show the old amount.
  await expect
    .poll(async () => {
      const png = PNG.sync.read(await qr.screenshot());
      return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data.split("\n");
    })
    .toEqual([
      "BCD",
      "002",
      "1",
      "SCT",
      "",
      ACCOUNT_NAME,
      IBAN,
      `EUR${(benOwes / 100).toFixed(2)}`,
      "",
      "",
      order.number,
    ]);

  // Before paying, Ben's balances plan two transfers: his and Cat's, both to Ann.
  await ben.page.goto("/balances");
  const benPlan = ben.page.getByTestId("planned-transfer");
  await expect(benPlan).toHaveText([
    new RegExp(`^You pay Ann ${money(benOwes).replace(".", "\\.")}`),
    `Cat pays Ann ${money(catOwes)}`,
  ]);

  // Ben says he paid; Ann, whose order page is open all along, confirms it.
  await ben.page.getByRole("link", { name: order.number }).first().click();
  await ben.page.getByRole("button", { name: "I've paid my share" }).click();
  await expect(ben.page.getByText("Paid, awaiting confirmation")).toBeVisible();
  await ann.page.getByRole("button", { name: "Confirm received from Ben" }).click();
  await expect(ann.page.getByText("Waiting on 1 of 2 shares.")).toBeVisible();

  // One transfer is left: Cat's share, the only debt still open in this group. Ann (owed it)
  // sees it in the plan and as her one balance; Ben has nothing left.
  await ann.page.goto("/balances");
  await expect(ann.page.getByTestId("planned-transfer")).toHaveText([
    `Cat pays you ${money(catOwes)}`,
  ]);
  await expect(ann.page.getByTestId("balance")).toHaveCount(1);
  await expect(ann.page.getByTestId("balance")).toContainText(`Cat owes you ${money(catOwes)}`);
  await ben.page.goto("/balances");
  await expect(ben.page.getByText("You're all settled up.")).toBeVisible();

  // The new receipt lists the changes, each line as delivered, and the totals before and after.
  const receipt = await ann.page.request.get(`/api/orders/${order._id}/receipt.pdf`, {
    headers: { Authorization: `Bearer ${ann.token}` },
  });
  expect(receipt.status()).toBe(200);
  const text = await pdfText(new Uint8Array(await receipt.body()));
  expect(text).toContain("Changes after checkout");
  expect(text).toContain(`${benMissing!.name}: not delivered`);
  expect(text).toContain(
    `${benSubstituted!.name}: substituted by ${substitute.name} at ${money(substitute.cents)}`,
  );
  expect(text).toContain(`Not delivered: now ${money(0)}`);
  expect(text).toContain(`Delivered: ${substitute.name}, 1 × ${money(substitute.cents)}`);
  const total = [...after.values()].reduce((s, x) => s + x, 0);
  expect(cents(adjusted.total)).toBe(total);
  expect(text).toMatch(new RegExp(`Total ${money(total).replace(".", "\\.")}`));
  expect(text).toContain(`Original total at checkout ${money(cents(order.total))}`);
  expect(text).toContain(`Was ${money(benBefore)} at checkout`);

  for (const p of [ann, ben, cat]) expect(p.problems).toEqual([]);
});
