import fs from "node:fs/promises";

/** Removes both servers' fresh databases (playwright.config.ts names them in the environment). */
export default async function teardown() {
  for (const dir of [process.env.CARTNER_E2E_DATA_DIR, process.env.CARTNER_E2E_EUR_DATA_DIR]) {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  }
}
