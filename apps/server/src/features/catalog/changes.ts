import type { CatalogChangesResponse } from "@cartner/contract";
import { desc, eq, lt } from "drizzle-orm";
import { catalogChanges, users } from "../../db/schema.ts";
import { invalidFields } from "../../lib/errors.ts";
import type { CatalogDeps } from "./deps.ts";
import { requireAccountRole } from "./operator-gate.ts";

const CHANGES_PAGE = 50;

/** The cursor is a change's number (`seq`); anything else was not given by this list. */
function seqOf(cursor: string): number {
  if (!/^\d{1,15}$/.test(cursor)) throw invalidFields({ cursor: "is not a cursor this list gave" });
  return Number(cursor);
}

/**
 * The log of catalog changes, newest first, each with who made it (an operator by name; null for
 * the command line's import), a page at a time: the cursor is the last change's number.
 */
export async function listChanges(
  deps: Pick<CatalogDeps, "db">,
  userId: string,
  cursor: string | undefined,
): Promise<CatalogChangesResponse> {
  await requireAccountRole(deps.db, userId, "catalog.read");
  const rows = await deps.db
    .select({
      seq: catalogChanges.seq,
      at: catalogChanges.at,
      byId: catalogChanges.byId,
      byName: users.name,
      productId: catalogChanges.productId,
      field: catalogChanges.field,
      from: catalogChanges.from,
      to: catalogChanges.to,
    })
    .from(catalogChanges)
    .leftJoin(users, eq(users.id, catalogChanges.byId))
    .where(cursor === undefined ? undefined : lt(catalogChanges.seq, seqOf(cursor)))
    .orderBy(desc(catalogChanges.seq))
    .limit(CHANGES_PAGE + 1);
  const page = rows.slice(0, CHANGES_PAGE);
  return {
    changes: page.map((row) => ({
      at: row.at.toISOString(),
      by: row.byId ? { _id: row.byId, name: row.byName ?? "" } : null,
      productId: row.productId,
      field: row.field,
      from: row.from,
      to: row.to,
    })),
    nextCursor: rows.length > CHANGES_PAGE ? String(page.at(-1)!.seq) : null,
  };
}
