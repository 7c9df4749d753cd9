import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { bytea, createdAt } from "./columns.ts";

/** The marketplace catalog. Money in integer cents; rating in tenths (0..50). */
export const products = pgTable(
  "products",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Stable seed key; the seed inserts missing products by it and never overwrites. */
    slug: text("slug").notNull().unique(),
    /**
     * The product's stable key in the operator's feed (its `id`): imports upsert by it. The seed's
     * products have their slug as key.
     */
    key: text("key").notNull().unique(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    category: text("category").notNull(),
    priceCents: integer("price_cents").notNull(),
    ratingTenths: smallint("rating_tenths").notNull(),
    reviews: integer("reviews").notNull().default(0),
    stock: integer("stock").notNull().default(0),
    color: text("color"),
    brand: text("brand"),
    gtin: text("gtin"),
    /** A product is never deleted (lines and orders keep it): it is made unavailable. */
    available: boolean("available").notNull().default(true),
    /** Display order in the default ("relevance" without a search) listing. */
    position: integer("position").notNull().default(0),
    /**
     * The drawn picture (an SVG of our own, no external URL): the seed's, or an imported product's
     * placeholder. Kept when a photo replaces it.
     */
    imageSvg: text("image_svg").notNull(),
    /** Short content hash of the picture shown, part of its URL so it can be cached forever. */
    imageHash: text("image_hash").notNull(),
    /** Which picture is shown: the drawn SVG, or a photo (WebP, in product_images). */
    imageType: text("image_type", { enum: ["svg", "webp"] })
      .notNull()
      .default("svg"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("products_price_nonnegative", sql`${t.priceCents} >= 0`),
    check("products_stock_nonnegative", sql`${t.stock} >= 0`),
    check("products_rating_range", sql`${t.ratingTenths} between 0 and 50`),
    index("products_category_idx").on(t.category),
  ],
);

/**
 * A product's photo (fetched from its feed's image_link, or uploaded by an operator), re-encoded
 * as WebP in two sizes. Apart from products, so the catalog's in-memory copy never loads it; in
 * the database so every instance serves it.
 */
export const productImages = pgTable("product_images", {
  productId: uuid("product_id")
    .primaryKey()
    .references(() => products.id),
  /** The photo's content hash, as in products.image_hash while it is shown. */
  hash: text("hash").notNull(),
  /** The link it was fetched from; null for an upload. */
  source: text("source"),
  small: bytea("small").notNull(),
  large: bytea("large").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every change to a product, with who or what made it: one row per changed field ("added" for a
 * new product). Never updated; GET /catalog/changes reads it.
 */
export const catalogChanges = pgTable(
  "catalog_changes",
  {
    /** The order of writing (oldest first); the cursor of the changes' pages. */
    seq: bigint("seq", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** The operator who made it; null for what the command line did (an import). */
    byId: uuid("by_id").references(() => users.id),
    /** What made it: "import" (the command line) or "operator" (the Catalog page). */
    source: text("source", { enum: ["import", "operator"] }).notNull(),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id),
    field: text("field").notNull(),
    /** The values before and after, as JSON (a price in cents, a boolean, a text). */
    from: jsonb("from"),
    to: jsonb("to"),
  },
  (t) => [index("catalog_changes_product_idx").on(t.productId, t.seq)],
);
