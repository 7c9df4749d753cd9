import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { expect, test, type Browser } from "@playwright/test";
import { expectNoA11yViolations, newUser, signUp, watchConsole } from "./fixtures.ts";

/*
 * The operator's journey on a server of its own, since the role is given the way an operator
 * gives it: `npm run operator -- grant EMAIL` on the embedded database, which only one process
 * may hold. So: the server runs, Olive and Ben sign up; it stops; the command makes Olive an
 * operator; it starts again on the same data, and both carry on signed in.
 */
const repo = path.resolve(import.meta.dirname, "../..");
const PORT = Number(process.env.E2E_PORT ?? 3100) + 2;
const BASE = `http://localhost:${PORT}`;
let dataDir: string;

function startServer(): Promise<ChildProcess> {
  const server = spawn(process.execPath, [path.join(repo, "apps/server/src/main.ts")], {
    env: {
      PATH: process.env.PATH ?? "",
      PORT: String(PORT),
      HOST: "localhost",
      DATA_DIR: dataDir,
      PUBLIC_URL: BASE,
      LOG_LEVEL: "warn",
      AUTH_RATE_LIMIT: "10000",
      RATE_LIMIT: "100000",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  return new Promise((resolve, reject) => {
    server.once("exit", (code) => reject(new Error(`the server exited with ${code}`)));
    const started = Date.now();
    const poll = async () => {
      const up = await fetch(`${BASE}/api/conhealth`).then(
        (res) => res.ok,
        () => false,
      );
      if (up) return resolve(server);
      if (Date.now() - started > 150_000) return reject(new Error("the server did not start"));
      setTimeout(() => void poll(), 250);
    };
    void poll();
  });
}

/**
 * Stops the server and checks that it stopped cleanly: a server cut off by its grace time leaves
 * the embedded database marked in use, and the operator's command would then refuse it.
 */
async function stopServer(server: ChildProcess): Promise<void> {
  server.removeAllListeners("exit");
  // Already gone (a failed check stopped it before the cleanup): nothing to wait for.
  if (server.exitCode !== null || server.signalCode !== null) return;
  const code = await new Promise<number | null>((resolve) => {
    server.once("exit", (exitCode) => resolve(exitCode));
    server.kill("SIGTERM");
  });
  expect(code, "the server exits with 0 once it has closed the database").toBe(0);
}

function operatorCommand(...args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    process.execPath,
    [path.join(repo, "apps/server/scripts/operator.ts"), ...args],
    {
      env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, output })));
}

async function personAt(browser: Browser, name: string) {
  // No service worker: its precaching after a page load downloads the app's files in the
  // background, and a download still in flight when the server is stopped holds the stop (a
  // client that stops reading is waited for) past its grace, so the database is left in use.
  const context = await browser.newContext({ baseURL: BASE, serviceWorkers: "block" });
  const page = await context.newPage();
  const problems = watchConsole(page, { serverErrors: true });
  const user = await signUp(page, newUser(name));
  return { context, page, problems, user };
}

test.describe.configure({ mode: "serial" });
let server: ChildProcess | undefined;
test.beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-e2e-operator-"));
});
test.afterAll(async () => {
  if (server) await stopServer(server);
  await fs.rm(dataDir, { recursive: true, force: true });
});

test("an operator changes a price on the Catalog page and the marketplace shows it; a member is refused", async ({
  browser,
}) => {
  server = await startServer();
  const olive = await personAt(browser, "Olive");
  const ben = await personAt(browser, "Ben");
  // Nobody is an operator yet: no Catalog link.
  await expect(olive.page.getByRole("link", { name: "Catalog" })).toHaveCount(0);

  // The role is given with the server stopped; nobody's page is left asking it meanwhile (a page
  // open through a restart sees 503s while it drains).
  await Promise.all([olive.page.goto("about:blank"), ben.page.goto("about:blank")]);
  await stopServer(server);
  server = undefined;
  const granted = await operatorCommand("grant", olive.user.email);
  expect(granted.code, granted.output).toBe(0);
  expect(granted.output).toContain("is now an operator");
  server = await startServer();

  // Olive's next page load carries her role: the link is there, and leads to the page.
  const { page } = olive;
  await page.goto("/products");
  const nav = page.getByRole("navigation", { name: "Main" });
  const menu = page.getByRole("banner").getByRole("button", { name: "Menu" });
  if (await menu.isVisible()) await menu.click();
  await nav.getByRole("link", { name: "Catalog" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Catalog" })).toBeVisible();

  // Find a product by name and change its price in place.
  const list = page.getByRole("list", { name: "Products" });
  const firstName = (await list.getByRole("listitem").first().locator("p").first().textContent())!;
  const searched = page.waitForResponse(
    (r) => r.url().includes("/api/catalog/products?") && r.url().includes("q="),
  );
  await page.getByRole("searchbox", { name: "Search the catalog" }).fill(firstName);
  await searched;
  const row = list.getByRole("listitem").filter({ hasText: firstName }).first();
  await row.getByRole("button", { name: `Edit ${firstName}` }).click();
  const form = page.getByRole("form", { name: `Edit ${firstName}` });
  await form.getByLabel("Price").fill("777.25");
  await form.getByLabel("Price").press("Enter");
  await expect(form).toHaveCount(0);
  await expect(row).toContainText("$777.25");
  // The log says who changed it.
  await expect(page.getByRole("list", { name: "Recent changes" })).toContainText(
    `Olive changed the price of ${firstName} from`,
  );
  await expectNoA11yViolations(page);

  // Ben, a member, finds the new price in the marketplace, has no Catalog link, and is refused.
  await ben.page.goto(`/products?q=${encodeURIComponent(firstName)}`);
  const card = ben.page.getByRole("article").filter({ hasText: firstName }).first();
  await expect(card).toContainText("$777.25");
  await expect(ben.page.getByRole("link", { name: "Catalog" })).toHaveCount(0);
  await ben.page.goto("/catalog");
  await expect(ben.page.getByText("Only the catalog's operators can see this page.")).toBeVisible();
  await expect(ben.page.getByRole("button", { name: "Add a product" })).toHaveCount(0);

  // No page error, CSP violation or server error on either side.
  expect(olive.problems).toEqual([]);
  expect(ben.problems).toEqual([]);
  await olive.context.close();
  await ben.context.close();
});
