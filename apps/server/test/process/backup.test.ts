/**
 * Backups: `npm run backup` while the real server runs and a writer keeps writing, `npm run
 * restore` into an empty DATA_DIR or database, a server on the copy: every write acknowledged
 * before the backup started is there, and every figure reads back the same.
 */
import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it, vi } from "vitest";
import {
  addLine,
  allActivity,
  makeHousehold,
  readFigures,
  sameOrigin,
  sessionOf,
} from "./figures.ts";
import { call, serverFixture, waitUntil } from "./server-process.ts";

vi.setConfig({ testTimeout: 180_000 });
const onPostgres = process.env.TEST_DB === "postgres";
const scripts = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../scripts");
const fixture = serverFixture("cartner-backup-", onPostgres);
afterEach(() => fixture.cleanup());

/** Runs `npm run backup|restore -- FILE`'s script with only this environment. */
function runScript(name: "backup" | "restore", file: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [path.join(scripts, `${name}.ts`), file], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.once("exit", (code) => resolve({ code, output })),
  );
}

/**
 * A copy cut short, altered, or (made before dumps had checksums) cut short and not loadable is
 * refused, saying what is wrong with it, and leaves the target as it was: DATA_DIR empty, the
 * database empty (the real restore into it afterwards succeeds).
 */
async function refusesDamagedCopies(file: string, target: Record<string, string>) {
  const bytes = await fs.readFile(file);
  const newline = bytes.indexOf(0x0a);
  const header = JSON.parse(bytes.subarray("CARTNER-BACKUP 1 ".length, newline).toString());
  const dumpStart = newline + 1;
  const variants: [string, Buffer, RegExp][] = [
    [
      "cut",
      bytes.subarray(0, bytes.length - 1000),
      onPostgres
        ? /Restore refused: .*cut\.backup did not restore, the database is left empty: pg_restore failed/
        : new RegExp(
            `Restore refused: .*cut\\.backup is not a usable Cartner backup: ` +
              `truncated at byte ${bytes.length - 1000} of ${bytes.length}`,
          ),
    ],
  ];
  if (!onPostgres) {
    const altered = Buffer.from(bytes);
    altered[dumpStart + Math.floor((bytes.length - dumpStart) / 2)]! ^= 0xff;
    const unchecked = Buffer.concat([
      Buffer.from(`CARTNER-BACKUP 1 ${JSON.stringify({ ...header, dump: undefined })}\n`),
      bytes.subarray(dumpStart, bytes.length - 1000),
    ]);
    variants.push(
      ["altered", altered, /Restore refused: .*altered\.backup .*checksum does not match/],
      ["unchecked", unchecked, /Restore refused: .*unchecked\.backup .*database copy is damaged/],
    );
  }
  // Each is refused before anything is written, so they may run side by side.
  await Promise.all(
    variants.map(async ([name, content, said]) => {
      const damaged = path.join(path.dirname(file), `${name}.backup`);
      await fs.writeFile(damaged, content);
      const refused = await runScript("restore", damaged, target);
      expect(refused.code, refused.output).toBe(1);
      expect(refused.output).toMatch(said);
      expect(refused.output).not.toMatch(/TypeError/);
    }),
  );
  expect(await fs.readdir(target.DATA_DIR!)).toEqual([]);
}

it(`a backup taken during writes restores every acknowledged write and figure (${onPostgres ? "PostgreSQL" : "embedded"})`, async () => {
  const env = await fixture.backend();
  const server = await fixture.start(env);
  const household = await makeHousehold(server.url);
  const figures = await readFigures(server.url, household);

  // The writer: Ann's line in another cart, +1 and -1 in turn; each answer is one committed change.
  const [ann, ben] = household.people as [
    (typeof household.people)[number],
    ...typeof household.people,
  ];
  const writing = await sessionOf(server.url, ann, [ben!], "While backing up");
  const product = household.products[0]!._id;
  await addLine(server.url, ann, writing.cartId, product, 1);
  const entriesBefore = (await allActivity(server.url, ann.token, writing.sessionId)).length;
  let acknowledged = 0;
  let attempted = 0;
  let stop = false;
  const writer = (async () => {
    while (!stop) {
      attempted++;
      const res = await call(server.url, "PATCH", `/api/carts/${writing.cartId}/quantity`, {
        token: ann.token,
        body: { productId: product, change: acknowledged % 2 === 0 ? 1 : -1 },
      });
      if (res.status !== 200) throw new Error(`write: ${res.status} ${JSON.stringify(res.body)}`);
      acknowledged++;
    }
  })();
  await waitUntil(
    async () => acknowledged,
    (n) => n >= 10,
  );

  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-backup-file-"));
  const file = path.join(dir, "cartner.backup");
  const acknowledgedBeforeBackup = acknowledged;
  const made = await runScript("backup", file, env);
  const acknowledgedAfterBackup = acknowledged;
  stop = true;
  await writer;
  expect(made.code, made.output).toBe(0);
  expect(made.output).toContain(onPostgres ? "(via pg_dump)" : "(via server)");
  // The server took writes while the copy was made.
  expect(acknowledgedAfterBackup).toBeGreaterThan(acknowledgedBeforeBackup);

  const target = await fixture.backend();
  await refusesDamagedCopies(file, target);
  const restored = await runScript("restore", file, target);
  expect(restored.code, restored.output).toBe(0);
  // A second restore into the now non-empty target is refused and changes nothing.
  const again = await runScript("restore", file, target);
  expect(again.code).toBe(1);
  expect(again.output).toMatch(
    onPostgres
      ? /Restore refused: The database of DATABASE_URL is not empty/
      : /Restore refused: .*already holds a database/,
  );
  await fs.rm(dir, { recursive: true, force: true });

  const copy = await fixture.start(target);
  // The tokens signed before still work: the backup carried the server secret.
  expect(sameOrigin(await readFigures(copy.url, household))).toEqual(sameOrigin(figures));
  const written =
    (await allActivity(copy.url, ann.token, writing.sessionId)).length - entriesBefore;
  expect(written).toBeGreaterThanOrEqual(acknowledgedBeforeBackup);
  expect(written).toBeLessThanOrEqual(attempted);
  // The cart is the one of that moment: the line's quantity after `written` changes.
  const cart = await call(copy.url, "GET", `/api/carts/${writing.cartId}`, { token: ann.token });
  const line = (
    cart.body.cart.products as Array<{ productId: { _id: string }; quantity: number }>
  ).find((l) => l.productId._id === product);
  expect(line?.quantity).toBe(1 + (written % 2));
});
