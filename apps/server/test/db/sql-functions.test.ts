import fs from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { migrationsFolder, openDatabase, type Database } from "../../src/db/client.ts";
import { readFunctions, type SqlFunction } from "../../src/db/functions.ts";
import { freshDatabase } from "../helpers.ts";

/**
 * The database's functions are the files of src/db/functions, and only those: each file's body is
 * its function's body (pg_proc.prosrc), every function of the schema has a file, and no name is
 * defined twice (an overload left by a changed signature).
 */
async function expectFunctionsAreTheFiles(database: Database, files: SqlFunction[]) {
  const rows = await database.rows<{ name: string; body: string }>(sql`
    select p.proname as name, p.prosrc as body
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public'
      and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
    order by p.proname`);
  expect(rows.map((r) => r.name)).toEqual(files.map((f) => f.name));
  for (const f of files) {
    expect(rows.find((r) => r.name === f.name)?.body, `${f.name}.sql`).toBe(bodyOf(f));
  }
}

/** The text between the file's $$ quotes, which is what PostgreSQL keeps as the body. */
function bodyOf(f: SqlFunction): string {
  const body = /\bAS \$\$([\s\S]*)\$\$;\s*$/.exec(f.text)?.[1];
  if (body === undefined) throw new Error(`${f.name}.sql: no body quoted with $$ found`);
  return body;
}

const onPostgres = process.env.TEST_DB === "postgres";
let files: SqlFunction[];
let database: Database;

beforeAll(async () => {
  files = await readFunctions();
  database = await freshDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe("SQL functions kept once, in src/db/functions", () => {
  it("each file defines the function it is named after, once", () => {
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const defined = [...f.text.matchAll(/CREATE OR REPLACE FUNCTION (\w+)\(/g)].map((m) => m[1]);
      expect(defined, `${f.name}.sql`).toEqual([f.name]);
    }
  });

  it("the tests' migrated template holds exactly the files' functions", async () => {
    await expectFunctionsAreTheFiles(database, files);
  });

  // Two embedded databases are loaded and dumped: slow on a busy machine.
  it(
    "a start puts back a function whose body differs from its file",
    { timeout: 90_000 },
    async () => {
      const stale = `CREATE OR REPLACE FUNCTION cart_view(p_cart uuid) RETURNS json
      LANGUAGE plpgsql STABLE AS $$ BEGIN RETURN NULL; END $$`;
      let started: Database;
      if (onPostgres) {
        await database.rows(sql.raw(stale));
        started = await openDatabase({ databaseUrl: database.url, dataDir: "memory://" });
      } else {
        const client = await PGlite.create({
          loadDataDir: new Blob([await fs.readFile(inject("pgliteTemplate"))]),
        });
        await client.exec(stale);
        const dump = await client.dumpDataDir("none");
        await client.close();
        started = await openDatabase({ dataDir: "memory://", loadDataDir: dump });
      }
      try {
        await expectFunctionsAreTheFiles(started, files);
      } finally {
        await started.close();
      }
    },
  );

  // Migrations up to 0017 defined these functions and stay as they ran; the files replace them on
  // every start. A later migration that defined one would be undone by its file at once.
  it("no migration after 0017 defines a function (their bodies live in the files)", async () => {
    const later = (await fs.readdir(migrationsFolder)).filter(
      (file) => /^\d{4}_.*\.sql$/.test(file) && Number(file.slice(0, 4)) > 17,
    );
    for (const file of later) {
      const text = await fs.readFile(path.join(migrationsFolder, file), "utf8");
      expect(
        /CREATE\s+(OR\s+REPLACE\s+)?FUNCTION/i.test(text),
        `${file} defines a function: put its body in src/db/functions/<name>.sql instead`,
      ).toBe(false);
    }
  });
});
