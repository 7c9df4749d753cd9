import crypto from "node:crypto";
import { AxeBuilder } from "@axe-core/playwright";
import { expect, type APIRequestContext, type Page } from "@playwright/test";

export const PASSWORD = "plum-orchard-42";

export function newUser(name = "Ann") {
  const id = crypto.randomBytes(4).toString("hex");
  return { name, email: `${name.toLowerCase()}.${id}@example.com`, password: PASSWORD };
}

export type TestUser = ReturnType<typeof newUser>;

/** The newest code mailed to this address, read from the dev outbox like a developer would. */
export async function readCode(request: APIRequestContext, email: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const res = await request.get("/dev/mailbox", { headers: { accept: "application/json" } });
      const { mails } = (await res.json()) as { mails: Array<{ to: string; text: string }> };
      code = mails.find((m) => m.to === email)?.text.match(/Your code: (\d{6})/)?.[1];
      return code;
    })
    .toBeTruthy();
  return code!;
}

export async function registerViaUi(page: Page, user: TestUser) {
  await page.goto("/register");
  await page.getByLabel("Name").fill(user.name);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/verify-otp$/);
}

export async function enterCode(page: Page, code: string) {
  await page.getByLabel("Verification code").fill(code);
  await page.getByRole("button", { name: "Verify", exact: true }).click();
}

/** A signed-up, verified user, signed in in this page. */
export async function signUp(page: Page, user = newUser()) {
  await registerViaUi(page, user);
  await enterCode(page, await readCode(page.request, user.email));
  await expect(
    page
      .getByRole("button", { name: "Logout" })
      .or(page.getByRole("link", { name: /welcome/i }))
      .first(),
  ).toBeVisible();
  return user;
}

/**
 * Runs axe on the page as it is now and fails on serious or critical violations. axe walks every
 * node and is slow on a busy 2-core machine: call it once per distinct page, when the page is ready.
 */
export async function expectNoA11yViolations(page: Page, label = new URL(page.url()).pathname) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(serious, `serious accessibility violations on ${label}`).toEqual([]);
}
