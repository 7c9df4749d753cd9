import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrationsFolder, openDatabase, type Db } from "../src/db/client.ts";
import { applyFunctions } from "../src/db/functions.ts";
import * as schema from "../src/db/schema.ts";
import { seedCatalog } from "../src/db/seed.ts";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
  }
}

/**
 * Migrates once per run (and applies the SQL functions, as a start does): a PGlite dump that every test file loads, and on PostgreSQL a template
 * database that every test file clones. Each test file gets its own fresh database from these.
 */
export default async function setup(project: TestProject) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-test-"));
  const cleanups: Array<() => Promise<void>> = [
    async () => fs.rm(dir, { recursive: true, force: true }),
  ];

  const client = await PGlite.create();
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  await applyFunctions(db as unknown as Db);
  await seedCatalog(db as unknown as Db);
  const dump = await client.dumpDataDir("none");
  await client.close();
  const dumpFile = path.join(dir, "template.tar");
  await fs.writeFile(dumpFile, Buffer.from(await dump.arrayBuffer()));
  project.provide("pgliteTemplate", dumpFile);

  // test.env reaches the workers, not this setup: read it from the project's config.
  const env = project.config.env as Record<string, string | undefined>;
  const url = env.TEST_DATABASE_URL;
  if (env.TEST_DB === "postgres" && url) {
    const name = `cartner_test_tpl_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.end();
    const templateUrl = withDatabase(url, name);
    const database = await openDatabase({ databaseUrl: templateUrl, dataDir: "memory://" });
    await seedCatalog(database.db);
    await database.close();
    project.provide("postgresTemplate", name);
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    });
  }

  return async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
