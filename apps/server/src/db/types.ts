/**
 * The database's types, apart from the client that opens it: the SQL functions (functions.ts) and
 * the first start's child process (create-pglite.ts) need them, and the client needs both of those.
 */
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A transaction of `Db` (what `db.transaction` hands its callback). */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
