/**
 * One feed row checked and turned into our product: the rules a row must meet (a zod schema per
 * deployment currency), and what its attributes become (name, price in cents, category, stock).
 */
import { gtinOf, type ProductCategory } from "@cartner/contract";
import { z } from "zod";
import { categoryOf } from "./categories.ts";
import type { RawRow } from "./feed-read.ts";

export const AVAILABILITIES = ["in_stock", "out_of_stock", "preorder", "backorder"] as const;
export type Availability = (typeof AVAILABILITIES)[number];

/** A product's stock when the feed says it can be bought and we hold no count of our own. */
export const DEFAULT_STOCK = 100;
/** The largest price taken, as the product filters' (1,000,000.00). */
const MAX_PRICE_CENTS = 100_000_000;

/** What an imported row sets on a product; `key` is the feed's id. */
export interface FeedProduct {
  key: string;
  name: string;
  description: string;
  category: ProductCategory;
  priceCents: number;
  availability: Availability;
  brand: string | null;
  gtin: string | null;
  color: string | null;
  /** The row's picture, fetched after the rows are written; its URL is checked then, not here. */
  imageLink: string | null;
}

export interface Refusal {
  where: string;
  field: string;
  message: string;
}

/** "12.50 EUR" → cents and currency; Google's form: a number with a point, a space, ISO 4217. */
const PRICE = /^(\d{1,9})(?:\.(\d{1,2}))?\s*([A-Za-z]{3})$/;

const price = (currency: string, name: string) =>
  z.string({ message: "is missing" }).transform((value, ctx) => {
    const match = PRICE.exec(value);
    if (!match) {
      ctx.addIssue({
        code: "custom",
        message: `"${value}" is not a price like "12.50 ${currency}"`,
      });
      return z.NEVER;
    }
    const [, units, fraction = "", code] = match;
    if (code!.toUpperCase() !== currency) {
      ctx.addIssue({
        code: "custom",
        message: `is in ${code!.toUpperCase()}, but this shop's currency is ${currency}`,
      });
      return z.NEVER;
    }
    const cents = Number(units) * 100 + Number(fraction.padEnd(2, "0"));
    if (cents <= 0 || cents > MAX_PRICE_CENTS) {
      ctx.addIssue({ code: "custom", message: `${name} must be above 0 and at most 1000000.00` });
      return z.NEVER;
    }
    return cents;
  });

/** The contract's GTIN check, which the Catalog page's edits use too. */
export { gtinOf };

const optionalText = (max: number) => z.string().max(max, `is longer than ${max} characters`);

/** Google's limits for the attributes we keep; the rest of a row is not checked. */
export function feedRowSchema(currency: string) {
  return z.object({
    id: z
      .string({ message: "is missing" })
      .min(1, "is missing")
      .max(50, "is longer than 50 characters"),
    title: z
      .string({ message: "is missing" })
      .min(1, "is missing")
      .max(150, "is longer than 150 characters"),
    description: optionalText(5000).optional(),
    price: price(currency, "price"),
    sale_price: price(currency, "sale_price").optional(),
    availability: z
      .string()
      .transform((value) => value.toLowerCase().replace(/\s+/g, "_"))
      .pipe(z.enum(AVAILABILITIES, { message: `must be one of ${AVAILABILITIES.join(", ")}` }))
      .optional(),
    brand: optionalText(70).optional(),
    gtin: z
      .string()
      .transform((value, ctx) => {
        const gtin = gtinOf(value);
        if (gtin === undefined) {
          ctx.addIssue({
            code: "custom",
            message: `"${value}" is not a GTIN (8, 12, 13 or 14 digits with a right check digit)`,
          });
          return z.NEVER;
        }
        return gtin;
      })
      .optional(),
    color: optionalText(100).optional(),
    image_link: optionalText(2000).optional(),
    product_type: optionalText(750).optional(),
    google_product_category: optionalText(750).optional(),
  });
}

export type FeedRowSchema = ReturnType<typeof feedRowSchema>;

/** The row as our product, or every refusal it earns (each naming its field). */
export function checkRow(
  row: RawRow,
  schema: FeedRowSchema,
): { product: FeedProduct } | { refusals: Refusal[] } {
  const parsed = schema.safeParse(row.fields);
  if (!parsed.success) {
    return {
      refusals: parsed.error.issues.map((issue) => ({
        where: row.where,
        field: String(issue.path[0] ?? "row"),
        message: issue.message,
      })),
    };
  }
  const r = parsed.data;
  if (r.sale_price !== undefined && r.sale_price > r.price) {
    return {
      refusals: [{ where: row.where, field: "sale_price", message: "is above price" }],
    };
  }
  return {
    product: {
      key: r.id,
      name: r.title,
      description: r.description ?? "",
      category: categoryOf(r.product_type, r.google_product_category),
      // The price a buyer pays now: the sale price while the feed gives one.
      priceCents: r.sale_price ?? r.price,
      // Google requires availability; a row without it is taken as on sale.
      availability: r.availability ?? "in_stock",
      brand: r.brand ?? null,
      gtin: r.gtin ?? null,
      color: r.color ?? null,
      imageLink: r.image_link ?? null,
    },
  };
}

/**
 * The stock a row sets. A feed says whether a product can be bought, not how many: in stock (or
 * on preorder or backorder, bought now and sent later) keeps the count we hold, or DEFAULT_STOCK
 * when there is none (a new product, or one at 0); out of stock is 0.
 */
export function stockFor(availability: Availability, current: number | undefined): number {
  if (availability === "out_of_stock") return 0;
  return current !== undefined && current > 0 ? current : DEFAULT_STOCK;
}

/**
 * Every row checked: the products, and the refusals. An id that repeats an earlier row's is
 * refused (which of the two would win is not for us to guess).
 */
export function checkRows(
  rows: RawRow[],
  currency: string,
): { products: FeedProduct[]; refusals: Refusal[]; refusedKeys: Set<string> } {
  const schema = feedRowSchema(currency);
  const products: FeedProduct[] = [];
  const refusals: Refusal[] = [];
  const refusedKeys = new Set<string>();
  const seen = new Map<string, string>();
  for (const row of rows) {
    const checked = checkRow(row, schema);
    if ("refusals" in checked) {
      refusals.push(...checked.refusals);
      if (row.fields.id) refusedKeys.add(row.fields.id);
      continue;
    }
    const first = seen.get(checked.product.key);
    if (first !== undefined) {
      refusals.push({ where: row.where, field: "id", message: `repeats the id of ${first}` });
      continue;
    }
    seen.set(checked.product.key, row.where);
    products.push(checked.product);
  }
  return { products, refusals, refusedKeys };
}
