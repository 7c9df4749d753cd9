/**
 * Child process of the server's first start: makes a new embedded database directory ready
 * (PostgreSQL's initdb inside PGlite, the migrations, the seed catalog). A process of its own
 * because this grows PGlite's WebAssembly memory by about 200 MB that is never given back (a
 * worker thread's was not returned to the system either); the server then opens the finished
 * directory as on any later start. Usage: node create-pglite.ts <directory>
 */
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { migrationsFolder } from "./client.ts";
import * as schema from "./schema.ts";
import { seedCatalogIfEmpty } from "./seed.ts";
import type { Db } from "./types.ts";

const client = await PGlite.create(process.argv[2]!);
const db = drizzle(client, { schema });
await migrate(db, { migrationsFolder });
await seedCatalogIfEmpty(db as unknown as Db);
await client.close();
