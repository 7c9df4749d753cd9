import { spawn, execFile, type ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import fs from "node:fs/promises";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { apiCall, person, runningTotals, sharedSession, type Person } from "./fixtures.ts";

/**
 * Open carts follow the catalog: three members in one session, Ben marked done; the product's
 * price changes on the server (as the operator's edit changes it, from another process) and within
 * a second Ann's cart shows the old price as "was", Ben's share moves and his done mark clears.
 * This journey runs its own server on PostgreSQL, where a change made by another process reaches
 * the servers over the live channel.
 */
const POSTGRES = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PORT = Number(process.env.E2E_PORT ?? 3100) + 3;
const BASE = `http://localhost:${PORT}`;
const database = `cartner_e2e_follow_${process.pid}_${Date.now()}`;
const databaseUrl = POSTGRES.replace(/\/[^/]*$/, `/${database}`);
const dataDir = path.join(os.tmpdir(), `cartner-e2e-follow-${process.pid}-${Date.now()}`);
const here = path.dirname(fileURLToPath(import.meta.url));
const MAIN = path.resolve(here, "../../apps/server/src/main.ts");
const CHANGE_PRICE = path.resolve(here, "../../apps/server/scripts/e2e-change-price.ts");
let server: ChildProcess | undefined;

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

test.describe.configure({ mode: "serial" });
test.use({ baseURL: BASE });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await admin((c) => c.query(`create database ${database}`));
  server = spawn(process.execPath, [MAIN], {
    cwd: path.resolve(here, ".."),
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: "localhost",
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PUBLIC_URL: BASE,
      APP_ORIGIN: "",
      CURRENCY: "USD",
      LOG_LEVEL: "warn",
      AUTH_RATE_LIMIT: "10000",
      RATE_LIMIT: "100000",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  await expect
    .poll(
      async () => {
        if (server?.exitCode !== null) throw new Error("the server exited");
        try {
          return (await fetch(`${BASE}/api/conhealth`)).status;
        } catch {
          return 0;
        }
      },
      { timeout: 150_000, intervals: [500] },
    )
    .toBe(200);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  await admin((c) => c.query(`drop database if exists ${database} with (force)`));
  await fs.rm(dataDir, { recursive: true, force: true });
});

test("a price change reaches an open cart of three members within a second", async ({
  browser,
}) => {
  const options = { baseURL: BASE };
  const ann: Person = await person(browser, "Ann", options);
  const ben: Person = await person(browser, "Ben", options);
  const cat: Person = await person(browser, "Cat", options);
  const sessionName = "Follow the price";
  const session = await sharedSession(ann, [ben, cat], sessionName);
  const { products } = await apiCall<{ products: { _id: string; name: string; price: number }[] }>(
    ann,
    "GET",
    "/api/products?limit=20",
  );
  const milk = products.find((p) => p.price >= 2)!;
  // Ann's two of it, shared by Ann and Ben; split by who added (and shares) what.
  await apiCall(ann, "PUT", `/api/sessions/${session._id}/split-policy`, {
    mode: "by_adder",
    weights: {},
    fees: "proportional",
  });
  const { cart } = await apiCall<{ cart: { products: { _id: string }[] } }>(
    ann,
    "POST",
    `/api/carts/${session.cartId}/product`,
    { productId: milk._id, quantity: 2 },
  );
  await apiCall(
    ann,
    "PUT",
    `/api/carts/${session.cartId}/lines/${cart.products[0]!._id}/shared-with`,
    {
      userIds: [ann.id, ben.id],
    },
  );
  await apiCall(ben, "PUT", `/api/sessions/${session._id}/ready`, { ready: true });

  const region = (who: Person) => who.page.getByRole("region", { name: sessionName, exact: true });
  for (const who of [ann, ben, cat]) {
    await who.page.goto("/cart");
    await expect(region(who).getByText(milk.name).first()).toBeVisible();
  }
  const benDone = region(ben)
    .getByRole("list", { name: "Running totals" })
    .getByText("Done", { exact: true });
  await expect(benDone).toBeVisible();
  const before = await runningTotals(ben.page, sessionName);
  await expect(region(ann).getByText(/^was /)).toHaveCount(0);

  const cents = Math.round(milk.price * 100) + 150;
  await promisify(execFile)(process.execPath, [CHANGE_PRICE, databaseUrl, milk._id, String(cents)]);
  const changed = Date.now();

  await expect(region(ann).getByText(/^was /)).toBeVisible({ timeout: 1_000 });
  await expect(benDone).toHaveCount(0, { timeout: 1_000 });
  await expect
    .poll(async () => (await runningTotals(ben.page, sessionName)).Ben, { timeout: 1_000 })
    .toBeGreaterThan(before.Ben! + 100);
  expect(Date.now() - changed).toBeLessThan(3_000);
  await expect(region(ben).getByText("Share changed", { exact: true })).toBeVisible();
  // Ann acknowledges the new price: the old one goes for everyone.
  await region(ann)
    .getByRole("button", { name: `OK, new price of ${milk.name} seen` })
    .click();
  await expect(region(cat).getByText(/^was /)).toHaveCount(0);
  for (const who of [ann, ben, cat]) {
    expect(who.problems).toEqual([]);
    await who.context.close();
  }
});
