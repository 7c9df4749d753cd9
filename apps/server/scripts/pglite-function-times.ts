/**
 * Preloaded into a benchmarked embedded server to see where its SQL's time goes:
 * `BENCH_NODE_ARGS="--import ./apps/server/scripts/pglite-function-times.ts" npm run bench`.
 * At the database's first query it turns on PostgreSQL's `track_functions = 'all'` (and runs
 * PGLITE_FUNCTION_TIMES_SQL, a statement to try, e.g. `set plan_cache_mode = force_generic_plan`),
 * then every 3 s writes `pg_stat_user_functions` (calls, total and own ms per function, slowest
 * first), and each statement's calls and time as the server awaited it (queueing for the
 * database included), to PGLITE_FUNCTION_TIMES_OUT (default: pglite-function-times.<pid>.txt in
 * the system's temporary folder): the last file written holds the whole run. A diagnostic, not a
 * benchmark; it patches PGlite's `query` in this process only.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";

const out =
  process.env.PGLITE_FUNCTION_TIMES_OUT ??
  path.join(os.tmpdir(), `pglite-function-times.${process.pid}.txt`);
const query = PGlite.prototype.query;
let started = false;
/** Each statement's calls and milliseconds, by its first 100 characters. */
const statements = new Map<string, { calls: number; ms: number }>();

interface FunctionTime {
  funcname: string;
  calls: string;
  total_ms: string;
  self_ms: string;
}

async function write(db: PGlite) {
  const { rows } = await query.call(
    db,
    `select funcname, calls, round(total_time::numeric, 1) as total_ms,
      round(self_time::numeric, 1) as self_ms
    from pg_stat_user_functions order by total_time desc limit 30`,
  );
  const lines = (rows as FunctionTime[]).map(
    (r) =>
      `${r.calls.toString().padStart(9)} ${r.total_ms.toString().padStart(10)} ms ${r.self_ms.toString().padStart(10)} ms own  ${r.funcname}`,
  );
  const slowest = [...statements]
    .sort((a, b) => b[1].ms - a[1].ms)
    .slice(0, 20)
    .map(
      ([text, t]) =>
        `${t.calls.toString().padStart(9)} ${t.ms.toFixed(0).padStart(10)} ms ${(t.ms / t.calls).toFixed(3)} ms each  ${text}`,
    );
  fs.writeFileSync(
    out,
    `${"calls".padStart(9)} ${"total".padStart(13)} ${"own".padStart(17)}\n${lines.join("\n")}\n\nstatements\n${slowest.join("\n")}\n`,
  );
}

/** Turns the counting on in the process's database, once, and starts writing the table. */
async function start(db: PGlite) {
  started = true;
  await query.call(db, "set track_functions = 'all'");
  const extra = process.env.PGLITE_FUNCTION_TIMES_SQL;
  if (extra) await query.call(db, extra);
  setInterval(() => {
    write(db).catch((error: unknown) => fs.writeFileSync(out, String(error)));
  }, 3000).unref();
}

PGlite.prototype.query = async function (this: PGlite, ...args: Parameters<PGlite["query"]>) {
  if (!started) await start(this);
  const begun = performance.now();
  try {
    return await query.apply(this, args);
  } finally {
    const text = String(args[0]).replace(/\s+/g, " ").slice(0, 100);
    const seen = statements.get(text) ?? { calls: 0, ms: 0 };
    seen.calls++;
    seen.ms += performance.now() - begun;
    statements.set(text, seen);
  }
} as PGlite["query"];
