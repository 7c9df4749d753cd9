import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { spawn } from "node:child_process";
import { PGlite } from "@electric-sql/pglite";
import { DrizzleQueryError, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { applyFunctions } from "./functions.ts";
import { pglitePrepared } from "./pglite-prepared.ts";
import * as schema from "./schema.ts";
import type { Db, Tx } from "./types.ts";

/** The database's types live in types.ts, which functions.ts reads without this client. */
export type { Db, Tx };

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** PostgreSQL's connection string (the live channel LISTENs on a connection of its own). */
  url?: string;
  /** The embedded database's client (the job queue runs its statements on it). */
  pglite?: PGlite;
  /**
   * The rows of one raw SQL statement, for the hot paths that are one statement each (the cart's
   * reads and writes, decision 004). On PGlite this calls the client directly: Drizzle's PGlite
   * driver passes its own type parsers with every query, which makes PGlite copy its whole parser
   * map per query (about a quarter of such a call's cost). Values come back as PGlite and
   * node-postgres parse them by default (json as objects, integers as numbers).
   */
  rows<T>(query: SQL): Promise<T[]>;
  /**
   * `rows`, for the light queries reads run on every request: on PostgreSQL a named prepared
   * statement (named for its text), planned once per connection and then, when its plan does not
   * depend on the values, not again; planning such a query costs PostgreSQL more than running it
   * (a reader's orders: 1.5 ms against 0.6). On the embedded database the same, through the
   * client's protocol (pglite-prepared.ts).
   */
  prepared<T>(query: SQL): Promise<T[]>;
  /** node-postgres's pool (PostgreSQL): its connection counts are metrics. */
  pool?: pg.Pool;
  /** Throws when the database cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const migrationsFolder = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../drizzle",
);

/** Turns Drizzle's sql`` templates into text and parameters for the drivers' own query calls. */
const dialect = new PgDialect();

/**
 * The prepared statements' names by text (Database.prepared): each connection prepares a name
 * once. The light queries are a few shapes; past this many texts, statements go unnamed.
 */
const statementNames = new Map<string, string>();
const MAX_PREPARED = 200;

/**
 * Any number of instances may start at once; one of them migrates and applies the SQL functions
 * (functions.ts), the others wait.
 */
const MIGRATION_LOCK_ID = 727_001;

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** A directory, or "memory://" for an in-memory database. */
  dataDir: string;
  /** A PGlite data-dir dump to start from (tests start from a migrated template). */
  loadDataDir?: Blob | File;
  /** Skip migrations and the SQL functions (the template already has both). */
  migrate?: boolean;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  const migrate = options.migrate !== false;
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, migrate)
    : openPglite(options.dataDir, options.loadDataDir, migrate);
}

/** A database that does not accept a connection within this is unreachable (503). */
const CONNECT_TIMEOUT_MS = 5_000;
/**
 * How long a query may wait for one of the pool's connections while all are busy. Waiting is
 * load, not an outage: a busy pool answers later, and only a wait this long answers 503.
 */
const POOL_WAIT_MS = 60_000;

/** A client with its own connect timeout, apart from the pool's (longer) wait for a free one. */
class TimedClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super({
      ...(typeof config === "string" ? { connectionString: config } : config),
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
  }
}

async function openPostgres(url: string, migrate: boolean): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 20,
    Client: TimedClient,
    connectionTimeoutMillis: POOL_WAIT_MS,
    idleTimeoutMillis: 30_000,
  });
  // A client losing its connection (PostgreSQL stopped or restarted) must not crash the process.
  // The pool reports idle clients' errors here and then drops them.
  pool.on("error", () => {});
  // A client checked out of the pool (inside a transaction) has no pool listener: its 'error'
  // event would be unhandled and end the process. The query in flight fails on its own (the
  // request answers 503), and the pool discards the broken client when it is released.
  pool.on("connect", (client) => {
    client.on("error", () => {});
  });
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  if (migrate) {
    // The advisory lock lives on one connection: take and release it on the same client.
    const lockClient = await pool.connect();
    try {
      await lockClient.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
      await migrateNamingFailure(() =>
        migratePg(drizzlePg(pool, { schema }), { migrationsFolder }),
      );
      await applyFunctions(db);
    } finally {
      await lockClient.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
      lockClient.release();
    }
  }
  return {
    db,
    kind: "postgres",
    url,
    pool,
    rows: async <T>(query: SQL) => {
      const { sql: text, params } = dialect.sqlToQuery(query);
      return (await pool.query(text, params)).rows as T[];
    },
    prepared: async <T>(query: SQL) => {
      const { sql: text, params } = dialect.sqlToQuery(query);
      let name = statementNames.get(text);
      if (name === undefined && statementNames.size < MAX_PREPARED) {
        name = `light_${statementNames.size}`;
        statementNames.set(text, name);
      }
      return (await pool.query({ name, text, values: params })).rows as T[];
    },
    ping: async () => {
      await pool.query("select 1");
    },
    close: () => pool.end(),
  };
}

/**
 * PostgreSQL's own page cache inside the embedded database. WebAssembly memory only grows, so the
 * default 128MB stays resident once touched; 32MB keeps about 110 MB off the server with the
 * writes and reads as fast (decision 050), the rest of a big catalog's pages being in the
 * operating system's cache.
 */
const PGLITE_SHARED_BUFFERS = "32MB";

async function openPglite(
  dataDir: string,
  loadDataDir: Blob | File | undefined,
  migrate: boolean,
): Promise<Database> {
  const memory = dataDir === "memory://";
  if (!memory) await createPgliteDirOnce(path.join(dataDir, "pglite"));
  const client = await PGlite.create(memory ? undefined : path.join(dataDir, "pglite"), {
    ...(loadDataDir ? { loadDataDir } : {}),
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  });
  const db = drizzlePglite(client, { schema });
  if (migrate) {
    await migrateNamingFailure(() => migratePglite(db, { migrationsFolder })).catch(
      async (error: unknown) => {
        await client.close();
        throw error;
      },
    );
    await applyFunctions(db as unknown as Db);
  }
  const rows = async <T>(query: SQL) => {
    const { sql: text, params } = dialect.sqlToQuery(query);
    return (await client.query<T>(text, params)).rows;
  };
  const named = pglitePrepared(client, MAX_PREPARED);
  return {
    db: db as unknown as Db,
    kind: "pglite",
    pglite: client,
    rows,
    prepared: async <T>(query: SQL) => {
      const { sql: text, params } = dialect.sqlToQuery(query);
      return named<T>(text, params);
    },
    ping: async () => {
      await client.query("select 1");
    },
    close: () => client.close(),
  };
}

/**
 * The first start creates the database directory in a child process (see create-pglite.ts), under
 * a temporary name that is renamed when complete, so a crash midway leaves nothing half-made.
 */
async function createPgliteDirOnce(dir: string): Promise<void> {
  const exists = await fs.access(dir).then(
    () => true,
    () => false,
  );
  if (exists) return;
  await fs.mkdir(path.dirname(dir), { recursive: true });
  // A fixed name: what an interrupted first start left behind is removed by the next one.
  const temporary = `${dir}.creating`;
  await fs.rm(temporary, { recursive: true, force: true });
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [fileURLToPath(new URL("./create-pglite.ts", import.meta.url)), temporary],
      { stdio: ["ignore", "inherit", "inherit"] },
    );
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`creating the database failed (${code})`)),
    );
  });
  await fs.rename(temporary, dir);
}

/** A migration failed: nothing of this start's migrations was kept (they run in one transaction). */
export class MigrationError extends Error {
  /** The failed migration's file in apps/server/drizzle, when it could be told. */
  readonly file: string | undefined;
  constructor(file: string | undefined, cause: unknown) {
    const reason = (cause instanceof DrizzleQueryError ? cause.cause : cause) as Error | undefined;
    super(
      `The database was not migrated: migration ${file ?? "(one of the pending ones)"} failed` +
        ` (${reason?.message ?? String(cause)}). The migrations run in one transaction, so the` +
        " database is as it was before this start. Fix the cause, or run the previous release.",
      { cause },
    );
    this.name = "MigrationError";
    this.file = file;
  }
}

/**
 * Drizzle's migrators apply every pending migration in one transaction on both databases; a
 * failure is rethrown as a MigrationError naming the migration whose statement failed (the latest
 * file holding that statement: pending migrations are the latest ones).
 */
async function migrateNamingFailure(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    const query = error instanceof DrizzleQueryError ? error.query : undefined;
    throw new MigrationError(
      query === undefined ? undefined : await migrationHolding(query),
      error,
    );
  }
}

async function migrationHolding(statement: string): Promise<string | undefined> {
  const journal = JSON.parse(
    await fs.readFile(path.join(migrationsFolder, "meta/_journal.json"), "utf8"),
  ) as { entries: Array<{ tag: string }> };
  for (const { tag } of journal.entries.toReversed()) {
    const file = `${tag}.sql`;
    const text = await fs.readFile(path.join(migrationsFolder, file), "utf8");
    // Drizzle splits a migration file into statements exactly so.
    if (text.split("--> statement-breakpoint").includes(statement)) return file;
  }
  return undefined;
}

/**
 * A read's light query (what a kept answer is checked against on every request), through the
 * database's `prepared` when the feature was given it (`light`), else through `db`. It reads
 * texts, booleans and numbers only: `prepared` skips Drizzle's parsers.
 */
export const lightRows = <T>(
  deps: { db: Db; light?: Database["prepared"] | undefined },
  query: SQL,
): Promise<T[]> => (deps.light ? deps.light<T>(query) : executeRows<T>(deps.db, query));

/**
 * The rows of a raw statement run on `db` or inside a transaction: both drivers answer
 * `{ rows }` (the generic query-result type says only `unknown`).
 */
export async function executeRows<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
