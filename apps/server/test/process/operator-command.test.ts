/**
 * `npm run operator -- grant|revoke EMAIL` as it runs, on an embedded database in a folder of its
 * own: the role given and taken by email (any case), a clear line each time, and exit code 1 with
 * a message for an unknown email or a wrong command.
 */
import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { openDatabase } from "../../src/db/client.ts";
import { users } from "../../src/db/schema.ts";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });
const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../scripts/operator.ts");
let dataDir: string;

function operator(...args: string[]) {
  const child = spawn(process.execPath, [script, ...args], {
    env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, LOG_LEVEL: "silent" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.once("exit", (code) => resolve({ code, output })),
  );
}

async function rolesOf(email: string) {
  const database = await openDatabase({ dataDir });
  try {
    const [row] = await database.db
      .select({ roles: users.roles })
      .from(users)
      .where(eq(users.email, email));
    return row?.roles;
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-operator-"));
  const database = await openDatabase({ dataDir });
  await database.db
    .insert(users)
    .values({ name: "Olive", email: "olive@example.com", passwordHash: "unused" });
  await database.close();
});
afterAll(async () => fs.rm(dataDir, { recursive: true, force: true }));

it("grants and revokes the operator role by email, and says what it did", async () => {
  const granted = await operator("grant", "Olive@Example.com");
  expect(granted).toEqual({
    code: 0,
    output: expect.stringContaining("Olive <olive@example.com> is now an operator"),
  });
  expect(await rolesOf("olive@example.com")).toEqual(["operator"]);

  const again = await operator("grant", "olive@example.com");
  expect(again.code).toBe(0);
  expect(again.output).toContain("is an operator already; nothing was changed.");

  const revoked = await operator("revoke", "olive@example.com");
  expect(revoked.code).toBe(0);
  expect(revoked.output).toContain("Olive <olive@example.com> is no longer an operator.");
  expect(await rolesOf("olive@example.com")).toEqual([]);
});

it("exits 1 with a message for an unknown email or a wrong command, changing nothing", async () => {
  const unknown = await operator("grant", "nobody@example.com");
  expect(unknown.code).toBe(1);
  expect(unknown.output).toContain("No account with the email nobody@example.com");
  for (const args of [[], ["promote", "olive@example.com"], ["grant"]]) {
    const wrong = await operator(...args);
    expect(wrong.code).toBe(1);
    expect(wrong.output).toContain("Usage: npm run operator -- grant EMAIL");
  }
  expect(await rolesOf("olive@example.com")).toEqual([]);
});
