/**
 * The operator's catalog (the Catalog page): the whole catalog paged, a new product, a change to
 * one. Each write is one transaction that checks the caller's role, changes the product and logs
 * every changed field with who changed it; what follows a committed change is
 * afterCatalogChange().
 */
import crypto from "node:crypto";
import {
  fromCents,
  toCents,
  type CatalogListResponse,
  type NewProductBodySchema,
  type Product,
  type ProductChangeBodySchema,
} from "@cartner/contract";
import { and, asc, eq, max, or, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { catalogChanges, products } from "../../db/schema.ts";
import { conflict, invalidFields, isUniqueViolation, notFound } from "../../lib/errors.ts";
import { productOf } from "../products/index.ts";
import { afterCatalogChange } from "./after-change.ts";
import { followCatalog, FOLLOWED_FIELDS } from "./follow.ts";
import type { CatalogDeps } from "./deps.ts";
import { requireAccountRole } from "./operator-gate.ts";
import { storeProductImage } from "./photo.ts";
import { drawPlaceholder, slugOf } from "./placeholder.ts";

type NewProduct = z.output<typeof NewProductBodySchema>;
type ProductChange = z.output<typeof ProductChangeBodySchema>;
type ChangeRow = typeof catalogChanges.$inferInsert;

/** A page's cursor: the last product's name and id, the list's order. */
const encodeCursor = (name: string, id: string) =>
  Buffer.from(JSON.stringify([name, id])).toString("base64url");

function decodeCursor(cursor: string): [string, string] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === "string" &&
      typeof value[1] === "string" &&
      /^[0-9a-f-]{36}$/.test(value[1])
    ) {
      return [value[0], value[1]];
    }
  } catch {
    // Falls through to the refusal.
  }
  throw invalidFields({ cursor: "is not a cursor this list gave" });
}

/** `%` and `_` in a search are the characters themselves. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The whole catalog by name, on sale or not (or only one of them): q matches name, brand,
 * description and key in part, and a GTIN in full.
 */
export async function listCatalog(
  deps: CatalogDeps,
  userId: string,
  query: {
    q?: string | undefined;
    available?: boolean | undefined;
    cursor?: string | undefined;
    limit: number;
  },
): Promise<CatalogListResponse> {
  await requireAccountRole(deps.db, userId, "catalog.read");
  const where: SQL[] = [];
  if (query.available !== undefined) where.push(eq(products.available, query.available));
  if (query.q) {
    const pattern = likePattern(query.q);
    where.push(
      or(
        sql`${products.name} ilike ${pattern}`,
        sql`${products.brand} ilike ${pattern}`,
        sql`${products.description} ilike ${pattern}`,
        sql`${products.key} ilike ${pattern}`,
        eq(products.gtin, query.q.replace(/[\s-]/g, "")),
      )!,
    );
  }
  if (query.cursor) {
    const [name, id] = decodeCursor(query.cursor);
    where.push(sql`(${products.name}, ${products.id}) > (${name}, ${id}::uuid)`);
  }
  const rows = await deps.db
    .select()
    .from(products)
    .where(and(...where))
    .orderBy(asc(products.name), asc(products.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    products: page.map((row) => productOf(row, deps.media)),
    nextCursor: rows.length > query.limit && last ? encodeCursor(last.name, last.id) : null,
  };
}

/** A key for a product added without one: readable from its name, unique by its random end. */
function newKey(name: string): string {
  const readable = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 30);
  return `${readable || "product"}-${crypto.randomBytes(4).toString("hex")}`;
}

export async function addProduct(
  deps: CatalogDeps,
  userId: string,
  body: NewProduct,
): Promise<Product> {
  const key = body.key ?? newKey(body.name);
  let row: typeof products.$inferSelect;
  try {
    row = await deps.db.transaction(async (tx) => {
      await requireAccountRole(tx, userId, "catalog.edit");
      const [last] = await tx.select({ position: max(products.position) }).from(products);
      const image = drawPlaceholder(body.name, body.category);
      const [inserted] = await tx
        .insert(products)
        .values({
          key,
          slug: slugOf(key),
          name: body.name,
          description: body.description,
          category: body.category,
          priceCents: toCents(body.price),
          stock: body.stock,
          color: body.color ?? null,
          brand: body.brand,
          gtin: body.gtin,
          available: body.available,
          ratingTenths: 0,
          reviews: 0,
          position: (last?.position ?? -1) + 1,
          imageSvg: image.svg,
          imageHash: image.hash,
        })
        .returning();
      await tx.insert(catalogChanges).values({
        source: "operator",
        byId: userId,
        productId: inserted!.id,
        field: "added",
        to: inserted!.name,
      });
      return inserted!;
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw conflict(`A product with the key "${key}" exists already; choose another key.`);
    }
    throw error;
  }
  await afterChange(deps, [row.id]);
  return productOf(row, deps.media);
}

/** The stored column of each field the operator changes, and how a value is logged. */
const COLUMNS = {
  name: { column: "name", stored: (v: string) => v },
  description: { column: "description", stored: (v: string) => v },
  category: { column: "category", stored: (v: string) => v },
  brand: { column: "brand", stored: (v: string | null) => v },
  gtin: { column: "gtin", stored: (v: string | null) => v },
  price: { column: "priceCents", stored: (v: number) => toCents(v) },
  stock: { column: "stock", stored: (v: number) => v },
  available: { column: "available", stored: (v: boolean) => v },
} as const;
type Field = keyof typeof COLUMNS;

export async function changeProduct(
  deps: CatalogDeps,
  userId: string,
  productId: string,
  body: ProductChange,
): Promise<Product> {
  const { row, changed } = await deps.db.transaction(async (tx) => {
    await requireAccountRole(tx, userId, "catalog.edit");
    // Locked: an import's batch holding this product waits for this change, or this for it.
    const [now] = await tx.select().from(products).where(eq(products.id, productId)).for("update");
    if (!now) throw notFound("Product not found.");
    const set: Partial<typeof products.$inferInsert> = {};
    const log: ChangeRow[] = [];
    for (const field of Object.keys(body) as Field[]) {
      const value = body[field];
      if (value === undefined) continue;
      const { column, stored } = COLUMNS[field];
      const next = (stored as (v: typeof value) => unknown)(value);
      const before = now[column];
      if (before === next) continue;
      (set as Record<string, unknown>)[column] = next;
      log.push({
        source: "operator",
        byId: userId,
        productId,
        field,
        // A price is logged in currency units, as the import logs it.
        from: field === "price" ? fromCents(before as number) : before,
        to: field === "price" ? fromCents(next as number) : next,
      });
    }
    if (log.length === 0) return { row: now, changed: false };
    const [updated] = await tx
      .update(products)
      .set({ ...set, updatedAt: sql`now()` })
      .where(eq(products.id, productId))
      .returning();
    await tx.insert(catalogChanges).values(log);
    return { row: updated!, changed: true };
  });
  if (changed) {
    await afterChange(deps, [productId], {
      carts: Object.keys(body).some((field) => FOLLOWED_FIELDS.has(field)),
    });
  }
  return productOf(row, deps.media);
}

/**
 * A product's new picture from an upload: stored (both sizes, the product switched to it, the
 * change logged with who made it) by storeProductImage(), then the after-change step.
 */
export async function replaceImage(
  deps: CatalogDeps,
  userId: string,
  productId: string,
  readUpload: () => Promise<Buffer>,
): Promise<Product> {
  // The role and the product first: nobody else's upload is read at all.
  await requireAccountRole(deps.db, userId, "catalog.edit");
  const [exists] = await deps.db
    .select({ id: products.id })
    .from(products)
    .where(eq(products.id, productId));
  if (!exists) throw notFound("Product not found.");
  const bytes = await readUpload();
  await storeProductImage(deps, productId, bytes, { source: "operator", byId: userId });
  await afterChange(deps, [productId]);
  const [row] = await deps.db.select().from(products).where(eq(products.id, productId));
  return productOf(row!, deps.media);
}

/**
 * A server's after-change step: its own catalog, and the others over the bus; with `carts`, open
 * carts holding the products follow them (a new product or picture moves no cart).
 */
export async function afterChange(
  deps: CatalogDeps,
  productIds: readonly string[],
  options: { carts?: boolean } = {},
) {
  await afterCatalogChange(
    { catalog: deps.catalog, tell: (message) => deps.events.publish(message) },
    productIds,
  );
  if (options.carts) await followCatalog(deps, productIds);
}
