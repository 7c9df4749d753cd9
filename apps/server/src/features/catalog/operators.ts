import type { AccountRole } from "@cartner/contract";
import { and, eq, isNull, sql } from "drizzle-orm";
import { users } from "../../db/schema.ts";
import type { Db } from "../../db/types.ts";
import { LIVE_CHANNEL } from "../live/index.ts";

export type RoleChange =
  | { found: false }
  | { found: true; name: string; email: string; changed: boolean; roles: AccountRole[] };

/**
 * Gives (`grant`) or takes (`revoke`) an account role by the account's email (any case), in one
 * statement. With `notifyServers` (PostgreSQL, servers running), every server forgets the account's
 * remembered sign-ins when it commits, so the account's answers carry its roles at once; the
 * catalog's calls read the roles from the database on every call anyway.
 */
export async function setAccountRole(
  deps: { db: Db; notifyServers?: boolean },
  input: { email: string; role: AccountRole; grant: boolean },
): Promise<RoleChange> {
  return deps.db.transaction(async (tx) => {
    const where = and(eq(users.email, input.email.trim().toLowerCase()), isNull(users.deletedAt));
    const [before] = await tx.select({ roles: users.roles }).from(users).where(where).for("update");
    if (!before) return { found: false };
    const has = before.roles.includes(input.role);
    const roles = input.grant
      ? has
        ? before.roles
        : [...before.roles, input.role]
      : before.roles.filter((role) => role !== input.role);
    const [after] = await tx
      .update(users)
      .set({ roles, ...(has === input.grant ? {} : { updatedAt: sql`now()` }) })
      .where(where)
      .returning({ id: users.id, name: users.name, email: users.email, roles: users.roles });
    const changed = has !== input.grant;
    if (changed && deps.notifyServers) {
      const message = JSON.stringify({ invalidate: { auth: { userId: after!.id } } });
      await tx.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${message})`);
    }
    return { found: true, name: after!.name, email: after!.email, changed, roles: after!.roles };
  });
}
