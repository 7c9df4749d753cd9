/**
 * A failure throttle: each refused attempt (a wrong code, a wrong passcode) is a row in a table
 * with a created_at column, and an action is refused with 429 once the rows matching a condition
 * within a sliding window reach a limit. The answer's Retry-After is the whole window.
 */
import { and, count, gt, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../db/client.ts";
import type { Clock } from "./clock.ts";
import { tooManyRequests, type AppError } from "./errors.ts";

/** A table of failures: one row per refused attempt, stamped when it happened. */
export type FailureTable = PgTable & { createdAt: PgColumn };

/** A failure's columns but its time, each a value or SQL (such as a subquery). */
type Failure<T extends FailureTable> = OrSql<Omit<T["$inferInsert"], "createdAt">>;
type OrSql<Row> = { [Key in keyof Row]: Row[Key] | SQL };

export interface AttemptLimit<T extends FailureTable> {
  /** Failures within the window that match the condition (all of them without one). */
  failures(where?: SQL): Promise<number>;
  /** Throws the 429 with this message when the matching failures have reached max. */
  enforce(where: SQL | undefined, max: number, message: string): Promise<void>;
  /** The 429 itself, for a refusal decided by the caller. */
  refuse(message: string): AppError;
  /** Counts one more failure, stamped now. */
  record(values: Failure<T>): Promise<void>;
}

export function createAttemptLimit<T extends FailureTable>(deps: {
  db: Db;
  clock: Clock;
  table: T;
  windowMs: number;
}): AttemptLimit<T> {
  const { db, clock, table, windowMs } = deps;

  async function failures(where?: SQL): Promise<number> {
    const since = new Date(clock.now().getTime() - windowMs);
    const [row] = await db
      .select({ n: count() })
      .from(table as PgTable)
      .where(and(where, gt(table.createdAt, since)));
    return row?.n ?? 0;
  }

  const refuse = (message: string) => tooManyRequests(message, windowMs / 1000);

  async function enforce(where: SQL | undefined, max: number, message: string) {
    if ((await failures(where)) >= max) throw refuse(message);
  }

  async function record(values: Failure<T>) {
    await db.insert(table).values({ ...values, createdAt: clock.now() } as T["$inferInsert"]);
  }

  return { failures, enforce, refuse, record };
}
