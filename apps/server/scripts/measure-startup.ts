/**
 * Measures what docs/benchmarks.md reports for `npm start` once built: time from process start to a healthy
 * /api/conhealth (on a fresh DATA_DIR and on a reopened one), and resident memory when idle.
 * Usage: npm run measure:startup
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { rssMb } from "./bench-support.ts";
import { startServer } from "./server-process.ts";

async function run(dataDir: string) {
  const server = await startServer({
    env: { DATA_DIR: dataDir },
    inheritEnv: true,
    web: true,
    output: "none",
    timeoutMs: 60_000,
  });
  try {
    // Load the landing page once, then let it settle as a user's idle server would.
    await fetch(`${server.url}/`).catch(() => {});
    await new Promise((r) => setTimeout(r, 5_000));
    const rss = await rssMb(server.child.pid!).catch(() => NaN);
    return { healthyMs: Math.round(server.healthyAfterMs), rssMb: Math.round(rss) };
  } finally {
    await server.stop();
  }
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
  // Retried: on a busy machine the stopped server's last files can still be closing (ENOTEMPTY).
  await fs.rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
