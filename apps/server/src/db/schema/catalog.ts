import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt } from "./columns.ts";

/** The marketplace catalog. Money in integer cents; rating in tenths (0..50). */
export const products = pgTable(
  "products",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Stable seed key; the seed inserts missing products by it and never overwrites. */
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    category: text("category").notNull(),
    priceCents: integer("price_cents").notNull(),
    ratingTenths: smallint("rating_tenths").notNull(),
    reviews: integer("reviews").notNull().default(0),
    stock: integer("stock").notNull().default(0),
    color: text("color"),
    /** Display order in the default ("relevance" without a search) listing. */
    position: integer("position").notNull().default(0),
    /** The product picture, drawn at seed time (an SVG of our own, no external URL). */
    imageSvg: text("image_svg").notNull(),
    /** Short content hash, part of the image URL so it can be cached forever. */
    imageHash: text("image_hash").notNull(),
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
