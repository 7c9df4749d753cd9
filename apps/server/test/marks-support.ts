import { sql } from "drizzle-orm";
import { executeRows } from "../src/db/client.ts";
import type { TestApp } from "./helpers.ts";

/** A person's marks (decision 061): the sum of their weights, how many rows, the largest id. */
export async function marksOf(db: TestApp["database"]["db"], person: string) {
  const [found] = await executeRows<{ sum: string; rows: string; max: string | null }>(
    db,
    sql`select coalesce(sum(weight), 0)::text as sum, count(*)::text as rows, max(id)::text as max
      from order_marks where person_id = ${person}`,
  );
  return { sum: Number(found!.sum), rows: Number(found!.rows), max: found!.max };
}

/** Marks one person, as a write of an order they are on does. */
export const mark = (person: string) => sql`select order_mark(array[${person}]::uuid[])`;
