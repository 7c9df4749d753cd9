import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { SERVE_NODE_ARGS } from "../apps/server/scripts/server-process.ts";
import { chromiumPath } from "../scripts/lib/chromium.ts";

const PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = `http://localhost:${PORT}`;
/** A second server, the next port, in euros (CURRENCY=EUR): the journeys that need EUR use it. */
const EUR_PORT = PORT + 1;
export const EUR_BASE_URL = `http://localhost:${EUR_PORT}`;
// A fresh embedded database for every run and server; nothing depends on what an earlier run left.
// The teardown (same process) reads them back from the environment to remove them.
const fresh = (server: string) =>
  path.join(os.tmpdir(), `cartner-e2e-${server}${process.pid}-${Date.now()}`);
process.env.CARTNER_E2E_DATA_DIR ??= fresh("");
process.env.CARTNER_E2E_EUR_DATA_DIR ??= fresh("eur-");
const dataDir = process.env.CARTNER_E2E_DATA_DIR;
const eurDataDir = process.env.CARTNER_E2E_EUR_DATA_DIR;

/** One server under test: the production build on `port`, its own database, its own currency. */
const server = (port: number, baseUrl: string, dir: string, currency: string) => ({
  command: ["node", ...SERVE_NODE_ARGS, "../apps/server/src/main.ts"].join(" "),
  url: `${baseUrl}/api/conhealth`,
  reuseExistingServer: false,
  // The server logs only warnings and errors here: show them, so a 500 explains itself.
  stdout: "pipe" as const,
  stderr: "pipe" as const,
  // Two servers start at once, each migrating a fresh database: on a busy 2-core machine that
  // took over a minute (2026-11-27).
  timeout: 150_000,
  env: {
    PORT: String(port),
    HOST: "localhost",
    DATA_DIR: dir,
    PUBLIC_URL: baseUrl,
    // Empty is unset: an exported APP_ORIGIN (its older name) must not contradict it.
    APP_ORIGIN: "",
    CURRENCY: currency,
    LOG_LEVEL: "warn",
    AUTH_RATE_LIMIT: "10000",
    RATE_LIMIT: "100000",
  },
});

export default defineConfig({
  testDir: "./tests",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  // Generous, one limit for every journey: on a busy 2-core CI machine a first page load can take
  // several seconds, a sign-up journey over a minute and a three-person one over 150 s (measured
  // 2026-11-25, when the whole suite took twice its usual 7 minutes); a hung test still ends.
  timeout: 300_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: BASE_URL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      // CHROMIUM_PATH, /usr/bin/chromium or the PATH's (npm test's preflight installs one if none).
      executablePath: chromiumPath(),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    {
      name: "desktop",
      use: { ...devices["Desktop Chrome"], channel: undefined },
      // The 360 px layouts, and the copy and layout of a 390 px phone, are not desktop journeys.
      testIgnore: [/responsive\.spec\.ts/, /phone-copy\.spec\.ts/],
    },
    {
      // The journeys a group walks through on a phone too (tagged "@phone" in their titles), at the
      // 390 px of a common phone; contexts a journey opens with browser.newContext() get it as well.
      name: "phone",
      use: { ...devices["Pixel 7"], channel: undefined, viewport: { width: 390, height: 844 } },
      grep: /@phone/,
      testIgnore: /responsive\.spec\.ts/,
    },
    {
      name: "mobile",
      use: { ...devices["Pixel 7"], channel: undefined, viewport: { width: 360, height: 780 } },
      testMatch: /responsive\.spec\.ts/,
    },
  ],
  // Both start before any test and must answer their health check; every spec uses the first
  // unless it says `test.use({ baseURL: EUR_BASE_URL })`.
  webServer: [
    server(PORT, BASE_URL, dataDir, "USD"),
    server(EUR_PORT, EUR_BASE_URL, eurDataDir, "EUR"),
  ],
  globalTeardown: "./global-teardown.ts",
});
