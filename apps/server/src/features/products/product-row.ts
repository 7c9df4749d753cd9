import { fromCents, type Product, type ProductCategory } from "@cartner/contract";
import type { products } from "../../db/schema.ts";
import type { Media } from "../../lib/media.ts";

/** A products row as the API sends it: the one place a stored product becomes a Product. */
export function productOf(row: typeof products.$inferSelect, media: Media): Product {
  return {
    _id: row.id,
    name: row.name,
    price: fromCents(row.priceCents),
    imageUrl: media.productImage(row.slug, row.imageHash, row.imageType),
    rating: row.ratingTenths / 10,
    reviews: row.reviews,
    description: row.description,
    category: row.category as ProductCategory,
    stock: row.stock,
    ...(row.color ? { color: row.color } : {}),
    brand: row.brand,
    gtin: row.gtin,
    available: row.available,
    key: row.key,
  };
}
