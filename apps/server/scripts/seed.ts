/** `npm run db:seed`: adds the catalog products that are missing; safe to run again. */
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/client.ts";
import { seedCatalog } from "../src/db/seed.ts";

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  const added = await seedCatalog(database.db);
  console.info(`Catalog seed: ${added} product(s) added (${database.kind}).`);
} finally {
  await database.close();
}
