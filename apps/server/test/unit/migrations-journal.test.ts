/**
 * The migrator applies a migration only when its `when` is later than the last one the database
 * has applied: a migration whose `when` is earlier (generated on a branch, say, on a day before
 * the migrations merged ahead of it) would be skipped on every database already past them.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { migrationsFolder } from "../../src/db/client.ts";

const journal = JSON.parse(
  readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8"),
) as { entries: { idx: number; when: number; tag: string }[] };

describe("the migrations' journal", () => {
  it("numbers the migrations in order, each later than the one before", () => {
    journal.entries.forEach((entry, i) => {
      expect(entry.idx, entry.tag).toBe(i);
      expect(entry.tag.startsWith(String(i).padStart(4, "0")), entry.tag).toBe(true);
      if (i > 0) expect(entry.when, entry.tag).toBeGreaterThan(journal.entries[i - 1]!.when);
    });
  });

  it("has one SQL file and one snapshot per migration", () => {
    const sql = readdirSync(migrationsFolder).filter((f) => f.endsWith(".sql"));
    expect(sql.sort()).toEqual(journal.entries.map((e) => `${e.tag}.sql`).sort());
    const snapshots = readdirSync(path.join(migrationsFolder, "meta")).filter((f) =>
      f.endsWith("_snapshot.json"),
    );
    expect(snapshots.length).toBe(journal.entries.length);
  });
});
