import type { BusMessage } from "../live/index.ts";

/** What the reload needs of the in-memory catalog (features/products/catalog.ts). */
interface Refreshable {
  refresh(ids?: readonly string[]): Promise<void>;
}

interface Logger {
  error(details: object, message: string): void;
}

/**
 * The catalog is kept in memory by each server: an import (the command line, on PostgreSQL while
 * servers run) tells them over the bus when a batch commits, and each re-reads the products whose
 * rows changed. After the bus's connection was lost, such a message may have been missed: refresh
 * then too. A message naming the products re-reads only them (on the server that made the change,
 * they are already held as they are: nothing is rebuilt). A failed refresh leaves the catalog as it
 * was and is tried again by the next read.
 */
export function reloadCatalogOnImport(
  bus: { subscribe(listener: (message: BusMessage) => void): () => void },
  catalog: Refreshable,
  log: Logger,
): () => void {
  return bus.subscribe((message) => {
    const named = "invalidate" in message ? message.invalidate.catalog : undefined;
    if ("gap" in message || named) {
      catalog
        .refresh(Array.isArray(named) ? named : undefined)
        .catch((error: unknown) => log.error({ err: error }, "catalog refresh failed"));
    }
  });
}
