import fs from "node:fs/promises";
import path from "node:path";
import type { ReadinessCheck } from "@cartner/contract";
import { sql } from "drizzle-orm";
import { migrationsFolder, type Database } from "../../db/client.ts";

/** A check that takes longer than this failed: a load balancer must not wait on us. */
export const CHECK_TIMEOUT_MS = 2_000;

/** Rejects when `work` has not settled within `ms`. */
export async function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("timeout")), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The newest migration this code ships: the journal's last entry's time. */
async function newestMigrationMillis(): Promise<number> {
  const journal = JSON.parse(
    await fs.readFile(path.join(migrationsFolder, "meta", "_journal.json"), "utf8"),
  ) as { entries: { when: number }[] };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

/**
 * Whether the database has every migration of this code: Drizzle records each applied one in
 * drizzle.__drizzle_migrations with its journal time, and applies those newer than its last.
 * Once true it stays true (migrations are never undone), so it is asked until then only.
 */
export function migrationsCheck(database: Database): () => Promise<boolean> {
  let done = false;
  const newest = newestMigrationMillis();
  newest.catch(() => {}); // awaited (and failing the check) at each ask
  return async () => {
    if (done) return true;
    const [row] = await database.rows<{ last: string | number | null }>(
      sql`select max(created_at) as last from drizzle.__drizzle_migrations`,
    );
    done = row?.last != null && Number(row.last) >= (await newest);
    return done;
  };
}

export interface ReadinessProbes {
  /** Resolves when the database answers. */
  database: () => Promise<unknown>;
  /** True when every migration ran. */
  migrations: () => Promise<boolean>;
  /** True when the live bus hears every instance (its LISTEN connection is up). */
  bus: () => boolean;
}

/** Runs every check at once, each bounded by CHECK_TIMEOUT_MS; answers which failed. */
export async function readiness(
  probes: ReadinessProbes,
): Promise<{ checks: Record<ReadinessCheck, "ok" | "failed">; failed: ReadinessCheck[] }> {
  const passes = async (probe: () => Promise<unknown>) =>
    within(probe(), CHECK_TIMEOUT_MS).then(
      (result) => result !== false,
      () => false,
    );
  const [database, migrations] = await Promise.all([
    passes(probes.database),
    passes(probes.migrations),
  ]);
  const results = { database, migrations, bus: probes.bus() };
  const failed = (Object.keys(results) as ReadinessCheck[]).filter((check) => !results[check]);
  const checks = Object.fromEntries(
    Object.entries(results).map(([check, ok]) => [check, ok ? "ok" : "failed"]),
  ) as Record<ReadinessCheck, "ok" | "failed">;
  return { checks, failed };
}
