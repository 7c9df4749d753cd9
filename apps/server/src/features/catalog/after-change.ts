import type { BusMessage } from "../live/index.ts";

type Invalidate = Extract<BusMessage, { invalidate: unknown }>;

export interface AfterChangeDeps {
  /** This server's catalog in memory; absent where no server runs (the import's command line). */
  catalog?: { refresh(ids?: readonly string[]): Promise<void> } | undefined;
  /**
   * How every server hears of it: the bus after a server's commit, or a notify inside the
   * import's transaction (delivered when, and only if, it commits).
   */
  tell(message: Invalidate): void | Promise<void>;
}

/** Past this many, the message says "something changed" (a NOTIFY payload holds 8,000 bytes). */
const MAX_NAMED_PRODUCTS = 100;

/**
 * What follows every committed change to products, wherever it was made (the Catalog page, an
 * import): this server serves the new values at once, and every other server reloads its catalog
 * and forgets its member reads, which show products. The one place to add what else a change to
 * products must set off.
 */
export async function afterCatalogChange(
  deps: AfterChangeDeps,
  productIds: readonly string[],
): Promise<void> {
  if (productIds.length === 0) return;
  // Re-read before the writer's answer, so the writer sees their own change.
  await deps.catalog?.refresh(productIds);
  await deps.tell({ invalidate: { ...catalogChanged(productIds).invalidate, reads: true } });
}

/**
 * The bus message that products changed: naming them when they are few, so every server re-reads
 * only those rows (and the one that made the change, which holds them already, nothing).
 */
export function catalogChanged(productIds: readonly string[]): Invalidate {
  const unique = [...new Set(productIds)];
  return { invalidate: { catalog: unique.length <= MAX_NAMED_PRODUCTS ? unique : true } };
}
