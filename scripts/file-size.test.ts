/**
 * Services a newcomer can read: no source file of the server, the web app or the contract is over
 * 400 lines (data such as the seed catalog aside; tests aside). A file that grows past it is split
 * by concern in the same change.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "..");
const MAX_LINES = 400;
/** Data, not logic: the catalog the database is seeded with. */
const DATA_FILES = new Set(["apps/server/src/db/seed-data.ts"]);

/** The tracked source files (not tests) under the folders the rule covers. */
function sourceFiles(): string[] {
  const listed = execFileSync(
    "git",
    ["ls-files", "apps/server/src", "apps/web/src", "packages/contract/src"],
    { cwd: repo, encoding: "utf8" },
  );
  return listed
    .split("\n")
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !DATA_FILES.has(f))
    .filter((f) => fs.existsSync(path.join(repo, f)));
}

describe("source files", () => {
  it(`are at most ${MAX_LINES} lines each`, () => {
    const tooLong = sourceFiles()
      .map((f) => [f, fs.readFileSync(path.join(repo, f), "utf8").split("\n").length - 1] as const)
      .filter(([, lines]) => lines > MAX_LINES)
      .map(([f, lines]) => `${f}: ${lines} lines`);
    expect(tooLong, "split these by concern").toEqual([]);
  });
});
