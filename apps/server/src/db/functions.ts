import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  ACTIONS,
  FEE_RATE_PERCENT,
  needsOf,
  PERMISSIONS,
  TAX_RATE_PERCENT,
  type Rule,
} from "@cartner/contract";
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
  return [...read, permissionFunction(), permissionRuleFunction(), pricingRatesFunction()].sort(
    (a, b) => (a.name < b.name ? -1 : 1),
  );
}

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * `permission_of(action)`: the contract's permissions table as the database reads it (the roles
 * allowed, what the session must be: "active" or "open cart", and the roles a session setting
 * opens it to), so that session_gate() decides
 * from the same table as the server and a change to a rule is one edit in the contract.
 * A table function (RETURNS TABLE), so that PostgreSQL inlines it into the caller's query and the
 * caller's cached plan holds it: as a one-row function it was planned again on every call, about
 * 0.3 ms of every cart write (20 times the inlined lookup).
 */
export function permissionFunction(): SqlFunction {
  const rows = ACTIONS.map((action) => {
    const rule: Rule = PERMISSIONS[action];
    const roles = rule.allow.map(quote).join(", ");
    const openedBy = rule.opened ? quote(rule.opened.by) : "NULL";
    const openedRoles = (rule.opened?.allow ?? []).map(quote).join(", ");
    return `    (${quote(action)}, ARRAY[${roles}]::text[], ${quote(needsOf(action))}, ${openedBy}::text, ARRAY[${openedRoles}]::text[])`;
  });
  const text = `-- Made from the contract's permissions table on every start (src/db/functions.ts).
CREATE OR REPLACE FUNCTION permission_of(p_action text)
RETURNS TABLE (roles text[], needs text, opened_by text, opened_roles text[])
LANGUAGE sql IMMUTABLE AS $$
  SELECT r.roles, r.needs, r.opened_by, r.opened_roles FROM (VALUES
${rows.join(",\n")}
  ) AS r (action, roles, needs, opened_by, opened_roles) WHERE r.action = p_action
$$;
`;
  return { name: "permission_of", text };
}

/**
 * `permission_rule(action)`: the same rule as permission_of() as one jsonb value (roles and
 * opened roles as array literals, e.g. "{creator,participant}"), for session_gate(): a scalar
 * SQL function over a constant, so the gate's plpgsql reads it as a simple expression (a lookup
 * in a constant parsed once per connection) instead of running a query per call, which was a
 * tenth of a cart write.
 */
export function permissionRuleFunction(): SqlFunction {
  const literal = (values: readonly string[]) => `{${values.join(",")}}`;
  const rules = Object.fromEntries(
    ACTIONS.map((action) => {
      const rule: Rule = PERMISSIONS[action];
      return [
        action,
        {
          roles: literal(rule.allow),
          needs: needsOf(action),
          openedBy: rule.opened?.by ?? null,
          openedRoles: literal(rule.opened?.allow ?? []),
        },
      ];
    }),
  );
  const text = `-- Made from the contract's permissions table on every start (src/db/functions.ts).
CREATE OR REPLACE FUNCTION permission_rule(p_action text)
RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT ${quote(JSON.stringify(rules))}::jsonb -> p_action
$$;
`;
  return { name: "permission_rule", text };
}

/**
 * `pricing_rates()`: the contract's fee and tax rates (pricing.ts) as the database reads them, for
 * the "ask first" budget's check (member_share_over()), made on every start like permission_of()
 * and, like it, a table function that the caller's plan inlines.
 */
export function pricingRatesFunction(): SqlFunction {
  const text = `-- Made from the contract's constants on every start (src/db/functions.ts).
CREATE OR REPLACE FUNCTION pricing_rates()
RETURNS TABLE (fee_percent integer, tax_percent integer)
LANGUAGE sql IMMUTABLE AS $$ SELECT ${FEE_RATE_PERCENT}, ${TAX_RATE_PERCENT} $$;
`;
  return { name: "pricing_rates", text };
}

/** Creates or replaces every function of the files, all in one transaction. */
export async function applyFunctions(db: Db): Promise<void> {
  const functions = await readFunctions();
  await db.transaction(async (tx) => {
    for (const f of functions) await tx.execute(sql.raw(f.text));
    for (const t of TRIGGERS) {
      await tx.execute(
        sql.raw(`CREATE OR REPLACE TRIGGER ${t.name} ${t.when} ON ${t.table}
          FOR EACH ROW EXECUTE FUNCTION ${t.function}()`),
      );
    }
  });
}

/**
 * Triggers whose function is newer than the migrations that define functions: made with it on
 * every start (CREATE OR REPLACE TRIGGER), since a migration runs before the files' functions
 * exist. The older triggers (the append-only ones) are in their migrations.
 */
const TRIGGERS = [
  // Every change to a product moves its updated_at, whoever writes it: the servers' in-memory
  // catalogs re-read only the products whose updated_at differs from what they hold.
  { name: "products_touch", when: "BEFORE UPDATE", table: "products", function: "products_touch" },
  // Every write to what an order's view shows moves the order's version in the same transaction:
  // the servers keep each order's view keyed by it (features/orders/reading/kept.ts).
  { name: "orders_touch", when: "BEFORE UPDATE", table: "orders", function: "order_touch" },
  // ...and marks everyone on the order once per transaction: balances, the settle plan and the
  // CSV of all orders are kept while their people's marks read the same (decision 061). The
  // shares' and payers' triggers below mark whoever they add or take off.
  {
    name: "orders_mark",
    when: "AFTER INSERT OR UPDATE OR DELETE",
    table: "orders",
    function: "order_people_mark",
  },
  {
    name: "order_shares_touch",
    when: "AFTER INSERT OR UPDATE OR DELETE",
    table: "order_shares",
    function: "order_part_touch",
  },
  {
    name: "order_payers_touch",
    when: "AFTER INSERT OR UPDATE OR DELETE",
    table: "order_payers",
    function: "order_part_touch",
  },
  // A share or payer row carries its order's sort key, copied as it is inserted: My Orders
  // pages a person's orders from the rows' indexes (features/orders/reading/orders.ts).
  {
    name: "order_shares_sort_key",
    when: "BEFORE INSERT",
    table: "order_shares",
    function: "order_sort_key",
  },
  {
    name: "order_payers_sort_key",
    when: "BEFORE INSERT",
    table: "order_payers",
    function: "order_sort_key",
  },
  // The book is append-only: an entry is only ever inserted.
  {
    name: "ledger_entries_touch",
    when: "AFTER INSERT",
    table: "ledger_entries",
    function: "order_part_touch",
  },
  {
    name: "users_order_touch",
    when: "AFTER UPDATE OF deleted_at",
    table: "users",
    function: "order_member_touch",
  },
] as const;
