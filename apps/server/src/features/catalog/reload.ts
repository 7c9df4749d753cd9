import type { BusMessage } from "../live/index.ts";

/**
 * The catalog is kept in memory by each server: an import (the command line, on PostgreSQL while
 * servers run) tells them over the bus to reload it. After the bus's connection was lost, such a
 * message may have been missed: reload then too.
 */
export function reloadCatalogOnImport(
  bus: { subscribe(listener: (message: BusMessage) => void): () => void },
  catalog: { invalidate(): void },
): () => void {
  return bus.subscribe((message) => {
    if ("gap" in message || ("invalidate" in message && message.invalidate.catalog)) {
      catalog.invalidate();
    }
  });
}
