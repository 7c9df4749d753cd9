import crypto from "node:crypto";
import { AxeBuilder } from "@axe-core/playwright";
import {
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from "@playwright/test";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

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
  await expect(page).not.toHaveURL(/\/verify-otp$/);
  // Signed in: the header's Logout (or, on a phone, its Menu button holding it) or the welcome link.
  await expect(
    page
      .getByRole("button", { name: "Logout" })
      .or(page.getByRole("banner").getByRole("button", { name: "Menu" }))
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

/**
 * Collects Content-Security-Policy violations and page errors (and, with `serverErrors`, 5xx
 * answers) while a test runs.
 */
export function watchConsole(page: Page, options: { serverErrors?: boolean } = {}): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content[- ]Security[- ]Policy/i.test(message.text())) {
      problems.push(message.text());
    }
  });
  page.on("pageerror", (error) => problems.push(error.message));
  if (options.serverErrors) {
    page.on("response", (response) => {
      if (response.status() >= 500) problems.push(`${response.status()} ${response.url()}`);
    });
  }
  return problems;
}

export interface SignedIn {
  user: TestUser;
  id: string;
  token: string;
  context: BrowserContext;
  page: Page;
}

/**
 * Someone signed up and signed in, in their own browser context; `watch` starts observing the
 * page before sign-up and its result is merged in.
 */
export async function signedInPerson<W extends object>(
  browser: Browser,
  name: string,
  watch: (page: Page) => W,
  /** The browser's own settings, e.g. `{ timezoneId: "America/New_York" }`. */
  contextOptions: BrowserContextOptions = {},
): Promise<SignedIn & W> {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  const watched = watch(page);
  const user = await signUp(page, newUser(name));
  const { token, id } = await page.evaluate(() => ({
    token: localStorage.getItem("token") ?? "",
    id: (JSON.parse(localStorage.getItem("user") ?? "{}") as { _id?: string })._id ?? "",
  }));
  return { ...watched, user, id, token, context, page };
}

/** Someone signed up and signed in, collecting the page's errors, CSP violations and 5xx answers. */
export type Person = SignedIn & { problems: string[] };

/** Someone signed up and signed in, in their own browser context. */
export const person = (
  browser: Browser,
  name: string,
  contextOptions: BrowserContextOptions = {},
): Promise<Person> =>
  signedInPerson(
    browser,
    name,
    (page) => ({ problems: watchConsole(page, { serverErrors: true }) }),
    contextOptions,
  );

/** A product as GET /api/products lists it (the fields the journeys read). */
export interface Product {
  _id: string;
  name: string;
  price: number;
  stock: number;
}

/** The cart section of a session on /cart. */
export function cartOf(page: Page, sessionName: string) {
  return page.getByRole("region", { name: sessionName, exact: true });
}

/** A setup call to the API with this person's token; fails the test unless it succeeds. */
export async function apiCall<T>(
  who: { page: Page; token: string },
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  data?: object,
) {
  const response = await who.page.request.fetch(path, {
    method,
    headers: { Authorization: `Bearer ${who.token}` },
    ...(data ? { data } : {}),
  });
  expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

export interface SharedSession {
  _id: string;
  sessionCode: string;
  cartId: string;
}

/**
 * Set up through the API: `creator`'s Friends session named `sessionName`; each of `members` joins
 * by code and passcode and the creator approves them. Its fees are split in proportion (the
 * Friends preset splits them equally): the journeys' figures are written for by adder, fees in
 * proportion.
 */
export async function sharedSession(
  creator: { page: Page; token: string },
  members: Array<{ page: Page; token: string; id: string }>,
  sessionName: string,
  { passcode = "sesame-42", participants = members.length > 1 ? "3+" : "2" } = {},
): Promise<SharedSession> {
  const { session } = await apiCall<{ session: SharedSession }>(creator, "POST", "/api/sessions", {
    sessionName,
    sessionType: "Friends",
    participants,
    passcode,
    fees: "proportional",
  });
  for (const member of members) {
    await apiCall(member, "POST", "/api/sessions/join/code", {
      sessionCode: session.sessionCode,
      passcode,
    });
    await apiCall(creator, "POST", `/api/sessions/approve/${session.sessionCode}`, {
      userId: member.id,
    });
  }
  return session;
}

/** Each member's running total on the cart page, in cents, by name ("(you)" dropped). */
export async function runningTotals(
  page: Page,
  sessionName: string,
): Promise<Record<string, number>> {
  const list = page
    .getByRole("region", { name: sessionName, exact: true })
    .getByRole("list", { name: "Running totals" });
  await expect(list.getByRole("listitem").first()).toBeVisible();
  const rows = await list.getByRole("listitem").allTextContents();
  return Object.fromEntries(
    rows.map((text) => {
      const name = text.split(/ \(you\)|Done|\$/)[0]!.trim();
      const total = text.match(/\$([\d,]+\.\d{2})/)![1]!.replace(/,/g, "");
      return [name, Math.round(Number(total) * 100)];
    }),
  );
}

export const sum = (totals: Record<string, number>) =>
  Object.values(totals).reduce((s, x) => s + x, 0);

/** The Total of a cart's Order Summary on the cart page, in cents. */
export async function orderSummaryTotal(page: Page, sessionName: string): Promise<number> {
  const total = page
    .getByRole("region", { name: `Order Summary for ${sessionName}` })
    .locator("dt", { hasText: /^Total$/ })
    .locator("xpath=following-sibling::dd");
  const text = (await total.textContent()) ?? "";
  return Math.round(Number(text.replace(/[^\d.]/g, "")) * 100);
}

/** The creator checks the cart out from its summary page, past the confirm; answers the order's id. */
export async function checkOutFromSummary(page: Page, sessionId: string): Promise<string> {
  await page.goto(`/session-summary/${sessionId}`);
  await page.getByRole("button", { name: "Check out" }).click();
  await page
    .getByRole("dialog", { name: "Check out this cart?" })
    .getByRole("button", { name: "Check out" })
    .click();
  await expect(page).toHaveURL(/\/orders\/[0-9a-f-]{36}$/);
  return page.url().split("/").pop()!;
}

/** The text a reader would copy out of the PDF, every page. */
export async function pdfText(data: Uint8Array): Promise<string> {
  const pdf = await getDocument({ data, isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str : "")).join(" "));
  }
  await pdf.destroy();
  return pages.join("\n").replace(/\s+/g, " ");
}
