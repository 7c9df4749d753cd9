/**
 * A journey's stand-in for the operator's price edit, run beside a server on PostgreSQL: the
 * product's price changes in the database, then open carts follow it (followCatalog, the step
 * every catalog change ends with), their members hearing it over the live channel as they would
 * from any process.
 *
 * Usage: node apps/server/scripts/e2e-change-price.ts DATABASE_URL PRODUCT_ID PRICE_CENTS
 */
import { eq } from "drizzle-orm";
import { openDatabase } from "../src/db/client.ts";
import { products } from "../src/db/schema.ts";
import { commandLineDeps, followCatalog } from "../src/features/catalog/index.ts";

const [databaseUrl, productId, cents] = process.argv.slice(2);
if (!databaseUrl || !productId || !cents) {
  console.error(
    "Usage: node apps/server/scripts/e2e-change-price.ts DATABASE_URL PRODUCT_ID PRICE_CENTS",
  );
  process.exit(1);
}
const database = await openDatabase({ databaseUrl, dataDir: "memory://", migrate: false });
try {
  await database.db
    .update(products)
    .set({ priceCents: Number(cents) })
    .where(eq(products.id, productId));
  const carts = commandLineDeps(database, "USD");
  await followCatalog(carts, [productId]);
  await carts.sent();
} finally {
  await database.close();
}
