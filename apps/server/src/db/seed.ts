import { count } from "drizzle-orm";
import { products } from "./schema.ts";
import { drawProductImage, releaseIcons } from "./seed-images.ts";
import { SEED_PRODUCTS } from "./seed-data.ts";
import type { Db } from "./types.ts";

/**
 * Inserts the seed products that are missing (by slug) and never overwrites existing ones, so
 * running it again is harmless and keeps stock and prices as the shop changed them.
 * Returns how many products were added.
 */
export async function seedCatalog(db: Db): Promise<number> {
  const rows = SEED_PRODUCTS.map((p, position) => {
    const image = drawProductImage(p.icon, p.category);
    return {
      slug: p.slug,
      key: p.slug,
      name: p.name,
      description: p.description,
      category: p.category,
      priceCents: p.price,
      ratingTenths: p.rating,
      reviews: p.reviews,
      stock: p.stock,
      color: p.color ?? null,
      position,
      imageSvg: image.svg,
      imageHash: image.hash,
    };
  });
  releaseIcons();
  const inserted = await db
    .insert(products)
    .values(rows)
    .onConflictDoNothing()
    .returning({ id: products.id });
  return inserted.length;
}

/** Seeds on first start only: an empty catalog. */
export async function seedCatalogIfEmpty(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(products);
  return row && row.n > 0 ? 0 : seedCatalog(db);
}
