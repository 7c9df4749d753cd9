import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import type { Db } from "./types.ts";

/**
 * The database's SQL functions, one file each (`<name>.sql`, one CREATE OR REPLACE FUNCTION):
 * their bodies live there, not in migrations. Every start applies them after the migrations, so
 * changing a body is editing its file. A migration is still needed to change a function's
 * arguments or result (it drops the old one; CREATE OR REPLACE cannot change them) and for tables.
 */
export const functionsFolder = fileURLToPath(new URL("./functions", import.meta.url));

export interface SqlFunction {
  /** The file's name without `.sql`, which is the function's name. */
  name: string;
  text: string;
}

export async function readFunctions(): Promise<SqlFunction[]> {
  const files = (await fs.readdir(functionsFolder)).filter((f) => f.endsWith(".sql")).sort();
  return Promise.all(
    files.map(async (file) => ({
      name: file.slice(0, -".sql".length),
      text: await fs.readFile(path.join(functionsFolder, file), "utf8"),
    })),
  );
}

/** Creates or replaces every function of the files, all in one transaction. */
export async function applyFunctions(db: Db): Promise<void> {
  const functions = await readFunctions();
  await db.transaction(async (tx) => {
    for (const f of functions) await tx.execute(sql.raw(f.text));
  });
}
