import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ACTIONS, needsOf, PERMISSIONS } from "@cartner/contract";
import { sql } from "drizzle-orm";
import type { Db } from "./types.ts";

/**
 * The database's SQL functions, one file each (`<name>.sql`, one CREATE OR REPLACE FUNCTION):
 * their bodies live there, not in migrations, except `permission_of()`, which is made from the
 * contract's permissions table (below). Every start applies them after the migrations, so
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
  const read = await Promise.all(
    files.map(async (file) => ({
      name: file.slice(0, -".sql".length),
      text: await fs.readFile(path.join(functionsFolder, file), "utf8"),
    })),
  );
  // In the order of their names, as the database lists them.
  return [...read, permissionFunction()].sort((a, b) => (a.name < b.name ? -1 : 1));
}

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * `permission_of(action)`: the contract's permissions table as the database reads it (the roles
 * allowed, and what the session must be: "active" or "open cart"), so that session_gate() decides
 * from the same table as the server and a change to a rule is one edit in the contract.
 */
export function permissionFunction(): SqlFunction {
  const rows = ACTIONS.map((action) => {
    const roles = PERMISSIONS[action].allow.map(quote).join(", ");
    return `    (${quote(action)}, ARRAY[${roles}]::text[], ${quote(needsOf(action))})`;
  });
  const text = `-- Made from the contract's permissions table on every start (src/db/functions.ts).
CREATE OR REPLACE FUNCTION permission_of(p_action text, OUT roles text[], OUT needs text)
LANGUAGE sql IMMUTABLE AS $$
  SELECT r.roles, r.needs FROM (VALUES
${rows.join(",\n")}
  ) AS r (action, roles, needs) WHERE r.action = p_action
$$;
`;
  return { name: "permission_of", text };
}

/** Creates or replaces every function of the files, all in one transaction. */
export async function applyFunctions(db: Db): Promise<void> {
  const functions = await readFunctions();
  await db.transaction(async (tx) => {
    for (const f of functions) await tx.execute(sql.raw(f.text));
  });
}
