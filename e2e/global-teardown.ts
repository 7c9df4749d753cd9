import fs from "node:fs/promises";

export default async function teardown() {
  const dir = process.env.CARTNER_E2E_DATA_DIR;
  if (dir) await fs.rm(dir, { recursive: true, force: true });
}
