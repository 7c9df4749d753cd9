import { useMemo } from "react";
import { useLocation } from "../../lib/router.tsx";

/**
 * Navigation state carried to a product page opened from the list: the list's query string, and
 * how many history entries back the list is (1 from the grid, one more per Similar Products hop).
 * The product page's back link uses it to return to the exact filtered list.
 */
export interface ProductLinkState {
  listSearch: string;
  depth: number;
}

export function productPath(id: string): string {
  return `/product/${encodeURIComponent(id)}`;
}

export function readProductLinkState(state: unknown): ProductLinkState | null {
  if (typeof state !== "object" || state === null) return null;
  const { listSearch, depth } = state as Partial<ProductLinkState>;
  if (typeof listSearch !== "string" || typeof depth !== "number" || depth < 1) return null;
  return { listSearch, depth };
}

/** State for links on the products list: the list is one entry back. */
export function useListLinkState(): ProductLinkState {
  const { search } = useLocation();
  // Stable while the query string is, so memoised product cards do not re-render.
  return useMemo(() => ({ listSearch: search, depth: 1 }), [search]);
}
