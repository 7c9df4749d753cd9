import { accountCaller, type Action } from "@cartner/contract";
import { eq } from "drizzle-orm";
import type { Db, Tx } from "../../db/types.ts";
import { users } from "../../db/schema.ts";
import { requireAllowed } from "../../lib/permissions.ts";

/**
 * The permissions table's answer for an account action (the catalog's): the caller's roles are
 * read from the database in the caller's transaction, so a role taken away holds at once on every
 * server, whatever its cached sign-ins say. A signed-in account without the role gets the table's
 * 403.
 */
export async function requireAccountRole(db: Db | Tx, userId: string, action: Action) {
  const [row] = await db.select({ roles: users.roles }).from(users).where(eq(users.id, userId));
  requireAllowed(accountCaller(row?.roles ?? [], action), action, "Not found");
}
