/**
 * Measures what README reports for `npm start` once built: time from process start to a healthy
 * /api/conhealth (on a fresh DATA_DIR and on a reopened one), and resident memory when idle.
 * Usage: npm run measure:startup
 */
import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../src/main.ts");
const PORT = 3197;

async function run(dataDir: string) {
  const started = performance.now();
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    stdio: "ignore",
  });
  let healthyMs = NaN;
  for (;;) {
    try {
      const res = await fetch(`http://localhost:${PORT}/api/conhealth`);
      if (res.ok) {
        healthyMs = performance.now() - started;
        break;
      }
    } catch {
      // not yet
    }
    if (performance.now() - started > 60_000) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  // Load the landing page once, then let it settle as a user's idle server would.
  await fetch(`http://localhost:${PORT}/`).catch(() => {});
  await new Promise((r) => setTimeout(r, 5_000));
  const status = await fs.readFile(`/proc/${child.pid}/status`, "utf8").catch(() => "");
  const rssMb = Number(status.match(/VmRSS:\s+(\d+) kB/)?.[1] ?? NaN) / 1024;
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
  return { healthyMs: Math.round(healthyMs), rssMb: Math.round(rssMb) };
}

const dir = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-startup-"));
try {
  const fresh = await run(dir);
  const reopened = await run(dir);
  console.info(`node ${process.version}, ${os.cpus().length} cores`);
  console.info(
    `fresh DATA_DIR:    healthy after ${fresh.healthyMs} ms, idle RSS ${fresh.rssMb} MB`,
  );
  console.info(
    `reopened DATA_DIR: healthy after ${reopened.healthyMs} ms, idle RSS ${reopened.rssMb} MB`,
  );
} finally {
  await fs.rm(dir, { recursive: true, force: true });
}
