/**
 * Importing checked feed rows into the catalog: upserted by key in batches, each batch one
 * transaction (a reader sees all of a batch or none of it), only what differs written, and every
 * change logged in catalog_changes. A product is never deleted: with `full` (the feed is the whole
 * catalog) one missing from it is made unavailable.
 */
import { fromCents } from "@cartner/contract";
import { and, eq, inArray, max, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/types.ts";
import { catalogChanges, products } from "../../db/schema.ts";
import { LIVE_CHANNEL } from "../live/index.ts";
import { afterCatalogChange } from "./after-change.ts";
import { FOLLOWED_FIELDS } from "./follow.ts";
import { stockFor, type FeedProduct } from "./feed-row.ts";
import { drawPlaceholder, slugOf } from "./placeholder.ts";

export const BATCH_SIZE = 1000;
/** Change rows per insert statement (6 parameters each, under PostgreSQL's 65,535). */
const CHANGES_PER_STATEMENT = 5000;

export interface ImportDeps {
  db: Db;
  /** PostgreSQL: each batch tells every running server to reload its catalog when it commits. */
  notifyServers?: boolean;
  /** After each batch: rows done, rows in all. */
  progress?: (done: number, total: number) => void;
  /**
   * After the import committed, with the products whose price, availability or stock it changed:
   * open carts follow them (followCatalog).
   */
  afterChange?: (productIds: string[]) => Promise<void>;
}

export interface ImportOptions {
  /** Work the diff out and change nothing. */
  dryRun?: boolean;
  /** The feed is the whole catalog: a product missing from it is made unavailable. */
  full?: boolean;
  /** Feed ids of rows refused but skipped: never counted as missing under `full`. */
  keepKeys?: ReadonlySet<string>;
  batchSize?: number;
}

/** One field's change, in the API's units (a price in currency units). */
export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

export interface ImportDiff {
  added: Array<{ key: string; name: string; price: number }>;
  changed: Array<{ key: string; name: string; changes: FieldChange[] }>;
  madeUnavailable: Array<{ key: string; name: string }>;
  unchanged: number;
}

/** How many rows an import changed (added, changed, made unavailable): 0 for the same file twice. */
export const changeCount = (diff: ImportDiff) =>
  diff.added.length + diff.changed.length + diff.madeUnavailable.length;

const current = {
  id: products.id,
  key: products.key,
  name: products.name,
  description: products.description,
  category: products.category,
  priceCents: products.priceCents,
  stock: products.stock,
  color: products.color,
  brand: products.brand,
  gtin: products.gtin,
  available: products.available,
};
type Current = Pick<typeof products.$inferSelect, keyof typeof current>;

/** What the row sets, field by field, as the product has it now. */
function target(row: FeedProduct, now: Current | undefined) {
  return {
    name: row.name,
    description: row.description,
    category: row.category as string,
    priceCents: row.priceCents,
    stock: stockFor(row.availability, now?.stock),
    color: row.color,
    brand: row.brand,
    gtin: row.gtin,
    available: true,
  };
}

/** The fields a row changes on a product (none: the product already is what the row says). */
export function fieldChanges(now: Current, row: FeedProduct): FieldChange[] {
  const next = target(row, now);
  const changes: FieldChange[] = [];
  for (const field of Object.keys(next) as Array<keyof typeof next>) {
    if (now[field] === next[field]) continue;
    changes.push(
      field === "priceCents"
        ? { field: "price", from: fromCents(now.priceCents), to: fromCents(next.priceCents) }
        : { field, from: now[field], to: next[field] },
    );
  }
  return changes;
}

export async function importFeed(
  deps: ImportDeps,
  rows: FeedProduct[],
  options: ImportOptions = {},
): Promise<ImportDiff> {
  const diff: ImportDiff = { added: [], changed: [], madeUnavailable: [], unchanged: 0 };
  const size = options.batchSize ?? BATCH_SIZE;
  const followed: string[] = [];
  for (let start = 0; start < rows.length; start += size) {
    const batch = rows.slice(start, start + size);
    if (options.dryRun) diffBatch(await currentOf(deps.db, batch, false), batch, diff);
    else await deps.db.transaction((tx) => applyBatch(deps, tx, batch, diff, followed));
    deps.progress?.(Math.min(start + size, rows.length), rows.length);
  }
  if (options.full) await makeMissingUnavailable(deps, rows, options, diff, followed);
  if (followed.length > 0 && deps.afterChange) await deps.afterChange(followed);
  return diff;
}

async function currentOf(db: Db | Tx, batch: FeedProduct[], lock: boolean) {
  const query = db
    .select(current)
    .from(products)
    // One array parameter, not one per key: a thousand-key batch is one short statement to plan.
    .where(
      sql`${products.key} in (select json_array_elements_text(${JSON.stringify(batch.map((row) => row.key))}::json))`,
    );
  // Locked in id order, as checkout locks the products it takes stock of: neither waits forever.
  const found = lock ? await query.orderBy(products.id).for("update") : await query;
  return new Map(found.map((row) => [row.key, row]));
}

/** Sorts a batch's rows into added, changed and unchanged against what the products are now. */
function diffBatch(now: Map<string, Current>, batch: FeedProduct[], diff: ImportDiff) {
  const added: FeedProduct[] = [];
  const changed: Array<{ row: FeedProduct; id: string; changes: FieldChange[] }> = [];
  for (const row of batch) {
    const product = now.get(row.key);
    if (!product) {
      added.push(row);
      diff.added.push({ key: row.key, name: row.name, price: fromCents(row.priceCents) });
      continue;
    }
    const changes = fieldChanges(product, row);
    if (changes.length === 0) {
      diff.unchanged++;
      continue;
    }
    changed.push({ row, id: product.id, changes });
    diff.changed.push({ key: row.key, name: row.name, changes });
  }
  return { added, changed };
}

async function applyBatch(
  deps: ImportDeps,
  tx: Tx,
  batch: FeedProduct[],
  diff: ImportDiff,
  followed: string[],
) {
  // Locked: an operator's edit of one of these products waits for this batch, or this for it.
  const now = await currentOf(tx, batch, true);
  const { added, changed } = diffBatch(now, batch, diff);
  const log: Array<typeof catalogChanges.$inferInsert> = [];
  if (added.length > 0) {
    const [last] = await tx.select({ position: max(products.position) }).from(products);
    const first = (last?.position ?? -1) + 1;
    const inserted = await tx
      .insert(products)
      .values(
        added.map((row, i) => {
          const image = drawPlaceholder(row.name, row.category);
          return {
            key: row.key,
            slug: slugOf(row.key),
            ...target(row, undefined),
            ratingTenths: 0,
            reviews: 0,
            position: first + i,
            imageSvg: image.svg,
            imageHash: image.hash,
          };
        }),
      )
      .returning({ id: products.id, name: products.name });
    for (const product of inserted) {
      log.push({ source: "import", productId: product.id, field: "added", to: product.name });
    }
  }
  if (changed.length > 0) {
    const values = sql.join(
      changed.map(({ row, id }) => {
        const t = target(row, now.get(row.key));
        return sql`(${id}::uuid, ${t.name}, ${t.description}, ${t.category}, ${t.priceCents}::integer,
          ${t.stock}::integer, ${t.color}::text, ${t.brand}::text, ${t.gtin}::text)`;
      }),
      sql`, `,
    );
    await tx.execute(sql`
      update products as p set name = v.name, description = v.description, category = v.category,
        price_cents = v.price_cents, stock = v.stock, color = v.color, brand = v.brand,
        gtin = v.gtin, available = true, updated_at = now()
      from (values ${values}) as v(id, name, description, category, price_cents, stock, color, brand, gtin)
      where p.id = v.id`);
    for (const { id, changes } of changed) {
      for (const change of changes) log.push({ source: "import", productId: id, ...change });
      if (changes.some((change) => FOLLOWED_FIELDS.has(change.field))) followed.push(id);
    }
  }
  await logChanges(tx, log);
  if (deps.notifyServers) await notifyServers(tx, idsOf(log));
}

async function logChanges(tx: Tx, log: Array<typeof catalogChanges.$inferInsert>) {
  for (let i = 0; i < log.length; i += CHANGES_PER_STATEMENT) {
    await tx.insert(catalogChanges).values(log.slice(i, i + CHANGES_PER_STATEMENT));
  }
}

/**
 * The after-change step of every catalog change, told inside the transaction, so it is delivered
 * when (and only if) the batch commits, to every server on this PostgreSQL.
 */
export async function notifyServers(tx: Db | Tx, productIds: readonly string[]): Promise<void> {
  await afterCatalogChange(
    {
      tell: async (message) => {
        await tx.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${JSON.stringify(message)})`);
      },
    },
    productIds,
  );
}

const idsOf = (log: Array<typeof catalogChanges.$inferInsert>) => [
  ...new Set(log.map((change) => change.productId)),
];

async function makeMissingUnavailable(
  deps: ImportDeps,
  rows: FeedProduct[],
  options: ImportOptions,
  diff: ImportDiff,
  followed: string[],
) {
  const inFeed = new Set(rows.map((row) => row.key));
  const onSale = await deps.db
    .select({ id: products.id, key: products.key, name: products.name })
    .from(products)
    .where(eq(products.available, true));
  const missing = onSale.filter((p) => !inFeed.has(p.key) && !options.keepKeys?.has(p.key));
  if (options.dryRun) {
    diff.madeUnavailable.push(...missing.map(({ key, name }) => ({ key, name })));
    return;
  }
  const size = options.batchSize ?? BATCH_SIZE;
  for (let start = 0; start < missing.length; start += size) {
    const ids = missing.slice(start, start + size).map((p) => p.id);
    await deps.db.transaction(async (tx) => {
      // Still on sale when the batch runs: what another writer took off meanwhile is theirs.
      const taken = await tx
        .update(products)
        .set({ available: false, updatedAt: sql`now()` })
        .where(and(inArray(products.id, ids), eq(products.available, true)))
        .returning({ id: products.id, key: products.key, name: products.name });
      diff.madeUnavailable.push(...taken.map(({ key, name }) => ({ key, name })));
      const log = taken.map((p) => ({
        source: "import" as const,
        productId: p.id,
        field: "available",
        from: true,
        to: false,
      }));
      followed.push(...taken.map((p) => p.id));
      await logChanges(tx, log);
      if (deps.notifyServers) await notifyServers(tx, idsOf(log));
    });
  }
}
