import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { chromiumPath } from "../scripts/lib/chromium.ts";

const PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = `http://localhost:${PORT}`;
// A fresh embedded database for every run; nothing depends on what an earlier run left.
// The teardown (same process) reads it back from the environment to remove it.
process.env.CARTNER_E2E_DATA_DIR ??= path.join(
  os.tmpdir(),
  `cartner-e2e-${process.pid}-${Date.now()}`,
);
const dataDir = process.env.CARTNER_E2E_DATA_DIR;

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
      testIgnore: /responsive\.spec\.ts/,
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
  webServer: {
    command: "node ../apps/server/src/main.ts",
    url: `${BASE_URL}/api/conhealth`,
    reuseExistingServer: false,
    // The server logs only warnings and errors here: show them, so a 500 explains itself.
    stdout: "pipe",
    stderr: "pipe",
    timeout: 60_000,
    env: {
      PORT: String(PORT),
      HOST: "localhost",
      DATA_DIR: dataDir,
      PUBLIC_URL: BASE_URL,
      // Empty is unset: an exported APP_ORIGIN (its older name) must not contradict it.
      APP_ORIGIN: "",
      LOG_LEVEL: "warn",
      AUTH_RATE_LIMIT: "10000",
      RATE_LIMIT: "100000",
    },
  },
  globalTeardown: "./global-teardown.ts",
});
