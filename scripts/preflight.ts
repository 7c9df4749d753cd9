/**
 * Runs before `npm test`: makes sure what the tests need beyond `npm ci` is on this machine, or
 * stops at once with one line that says what is missing and the command that fixes it.
 * - Chromium for the Playwright journeys: found (CHROMIUM_PATH, /usr/bin/chromium, PATH), or
 *   installed from Debian when we may (root and apt-get), or one line and exit 1.
 * - PostgreSQL for the API tests' second database: optional on a laptop (one line says the
 *   PostgreSQL project is skipped), required in CI (started with pg_ctlcluster when installed).
 */
import { spawnSync } from "node:child_process";
import { findChromium, isExecutable } from "./lib/chromium.ts";
import { answers } from "./lib/port.ts";

const INSTALL_CHROMIUM = "apt-get update && apt-get install -y chromium";

function run(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: ["ignore", "ignore", "inherit"] }).status === 0;
}

function onPath(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

function fail(line: string): never {
  console.error(`npm test: ${line}`);
  process.exit(1);
}

function ensureChromium(): void {
  if (findChromium({ env: process.env, isExecutable })) return;
  const mayInstall = process.getuid?.() === 0 && onPath("apt-get");
  if (!mayInstall) {
    fail(
      `Chromium is missing (set CHROMIUM_PATH, or install it: sudo sh -c '${INSTALL_CHROMIUM}').`,
    );
  }
  console.info("npm test: Chromium is missing; installing Debian's chromium with apt-get...");
  const started = Date.now();
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const apt = (args: string[]) =>
    spawnSync("apt-get", args, { stdio: ["ignore", "ignore", "inherit"], env }).status === 0;
  if (!apt(["update", "-qq"]) || !apt(["install", "-y", "-qq", "chromium"])) {
    fail(`installing Chromium failed; run: ${INSTALL_CHROMIUM}`);
  }
  const found = findChromium({ env: process.env, isExecutable });
  if (!found) fail(`Chromium was installed but not found; set CHROMIUM_PATH.`);
  console.info(`npm test: installed ${found} in ${Math.round((Date.now() - started) / 1000)} s.`);
}

async function checkPostgres(): Promise<void> {
  if (process.env.TEST_DATABASE_URL || (await answers(5432))) return;
  if (!process.env.CI) {
    console.info(
      "npm test: PostgreSQL is not answering on 127.0.0.1:5432, so the API tests run on the " +
        "embedded database only (start PostgreSQL or set TEST_DATABASE_URL to run them on both).",
    );
    return;
  }
  // CI must test both databases: start the installed cluster, as a fresh CI machine has it stopped.
  if (onPath("pg_ctlcluster") && onPath("pg_lsclusters")) {
    const version = spawnSync("sh", ["-c", "pg_lsclusters -h | awk 'NR==1{print $1}'"], {
      encoding: "utf8",
    }).stdout.trim();
    if (version) {
      console.info(`npm test: starting PostgreSQL ${version}...`);
      run("pg_ctlcluster", ["--skip-systemctl-redirect", version, "main", "start"]);
      for (let i = 0; i < 30 && !(await answers(5432)); i++) {
        await new Promise((r) => setTimeout(r, 1000));
      }
      if (await answers(5432)) return;
    }
  }
  fail("CI runs the API tests on PostgreSQL too, but none answers on 127.0.0.1:5432.");
}

ensureChromium();
await checkPostgres();
