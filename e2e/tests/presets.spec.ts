import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { apiCall, expectNoA11yViolations, person, type Person, type Product } from "./fixtures.ts";

interface Session {
  _id: string;
  sessionCode: string;
  cartId: string;
  checkoutBy: string;
  splitPolicy: { mode: string; weights: Record<string, number>; fees: string };
  invitedUsers: { userId: string; child: boolean; budgetMode: string }[];
}

/** Each member asks to join by code and passcode; the creator approves them. */
async function join(creator: Person, session: Session, members: Person[]) {
  for (const member of members) {
    await apiCall(member, "POST", "/api/sessions/join/code", {
      sessionCode: session.sessionCode,
      passcode: "home-7",
    });
    await apiCall(creator, "POST", `/api/sessions/approve/${session.sessionCode}`, {
      userId: member.id,
    });
  }
}

test("a Family shows its choices, marks a child, and only its creator checks out; a Couple's partner checks out", async ({
  browser,
}) => {
  const phone = { viewport: { width: 360, height: 780 } };
  const [ann, ben, kit] = await Promise.all([
    person(browser, "Ann", phone),
    person(browser, "Ben"),
    person(browser, "Kit"),
  ]);
  const name = `Family week ${crypto.randomBytes(3).toString("hex")}`;

  // Ann creates a Family on a phone: the form says what the type sets before she creates it.
  await ann.page.goto("/sessions");
  const form = ann.page.getByRole("form", { name: "Create a session" });
  await form.getByLabel("Session Name").fill(name);
  await form.getByLabel("Session Type").selectOption("Family");
  const choices = form.getByRole("group", { name: "What a Family session sets" });
  await expect(choices.getByRole("list")).toContainText("Split: parts by weight");
  await expect(choices.getByRole("list")).toContainText("Checkout: only the creator checks out");
  await expect(choices.getByLabel("Who checks out")).toHaveValue("creator");
  await form.getByLabel(/Passcode/).fill("home-7");
  await form.getByRole("button", { name: "Create Session" }).click();
  await expect(ann.page).toHaveURL(/\/session\/[0-9a-f-]{36}$/);
  const sessionId = ann.page.url().split("/").pop()!;
  let { session } = await apiCall<{ session: Session }>(ann, "GET", `/api/sessions/${sessionId}`);
  expect(session.splitPolicy.mode).toBe("weights");
  expect(session.checkoutBy).toBe("creator");
  await join(ann, session, [ben, kit]);

  // Ann marks Kit as a child in the lobby: weight 50 and "ask first" are offered, both taken.
  await ann.page.reload();
  await ann.page.getByRole("button", { name: "Mark Kit as a child" }).click();
  const offer = ann.page.getByRole("group", { name: "Mark Kit as a child" });
  await expect(offer.getByLabel("Weight 50 (a full share is 100)")).toBeChecked();
  await expect(offer.getByLabel("Budget: ask first")).toBeChecked();
  await expectNoA11yViolations(ann.page, "lobby with the child offer");
  await offer.getByRole("button", { name: "Mark as child" }).click();
  await expect(ann.page.getByText("Kit is marked as a child.")).toBeVisible();
  await expect(ann.page.getByRole("button", { name: "Kit is not a child" })).toBeVisible();
  ({ session } = await apiCall<{ session: Session }>(ann, "GET", `/api/sessions/${sessionId}`));
  expect(session.invitedUsers.find((m) => m.userId === kit.id)).toMatchObject({
    child: true,
    budgetMode: "ask",
  });
  expect(session.splitPolicy.weights[kit.id]).toBe(50);

  // Ben, a participant, cannot check out a Family: the summary says who does, the API refuses.
  const { products } = await apiCall<{ products: Product[] }>(ann, "GET", "/api/products");
  const product = products.find((p) => p.stock >= 5)!;
  await apiCall(ben, "POST", `/api/carts/${session.cartId}/product`, { productId: product._id });
  await ben.page.goto(`/session-summary/${sessionId}`);
  await expect(ben.page.getByText(/Ann checks out for the group/)).toBeVisible();
  await expect(ben.page.getByRole("button", { name: "Check out" })).toHaveCount(0);
  const refused = await ben.page.request.post(`/api/sessions/${sessionId}/checkout`, {
    headers: { Authorization: `Bearer ${ben.token}` },
  });
  expect(refused.status()).toBe(403);

  // A Couple: Ben, the partner, checks out from the summary.
  const couple = await apiCall<{ session: Session }>(ann, "POST", "/api/sessions", {
    sessionName: `Couple ${crypto.randomBytes(3).toString("hex")}`,
    sessionType: "Couple",
    passcode: "home-7",
  });
  expect(couple.session.checkoutBy).toBe("members");
  await join(ann, couple.session, [ben]);
  await apiCall(ann, "POST", `/api/carts/${couple.session.cartId}/product`, {
    productId: product._id,
  });
  await ben.page.goto(`/session-summary/${couple.session._id}`);
  await ben.page.getByRole("button", { name: "Check out" }).click();
  const dialog = ben.page.getByRole("dialog", { name: "Check out this cart?" });
  await dialog.getByRole("button", { name: "Check out" }).click();
  await expect(ben.page).toHaveURL(/\/orders\/[0-9a-f-]{36}$/);

  for (const who of [ann, ben, kit]) expect(who.problems).toEqual([]);
});
