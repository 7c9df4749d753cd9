import { useCallback, useMemo } from "react";
import { useLocation, useSearchParams } from "../../lib/router.tsx";
import { filtersToSearchParams, parseFilters, type ProductFilters } from "./filters.ts";

/**
 * Continuous inputs (the price slider, typing in the search box) write the URL in bursts. The first
 * write of a burst pushes a history entry and marks it with its source; later writes from the same
 * source replace that entry. A burst therefore costs one Back press, and every discrete change (a
 * checkbox, a sort, a submitted search, Clear filters) is a normal push.
 */
export type FilterSource = "price" | "search";

interface FilterEntryState {
  filterSource?: FilterSource;
}

export function useProductFilters() {
  const [searchParams, setSearchParams] = useSearchParams();
  const { state } = useLocation();
  const filters = useMemo(() => parseFilters(searchParams), [searchParams]);
  const entrySource = (state as FilterEntryState | null)?.filterSource;

  const setFilters = useCallback(
    (next: ProductFilters, source?: FilterSource) => {
      const nextParams = filtersToSearchParams(next);
      const unchanged = nextParams.toString() === filtersToSearchParams(filters).toString();
      if (unchanged) {
        // A submitted search that typing already applied: end the burst, so the next one pushes.
        if (source === undefined && entrySource !== undefined) {
          setSearchParams(nextParams, { replace: true, state: null });
        }
        return;
      }
      setSearchParams(nextParams, {
        replace: source !== undefined && source === entrySource,
        state: source ? ({ filterSource: source } satisfies FilterEntryState) : null,
      });
    },
    [filters, entrySource, setSearchParams],
  );

  return { filters, setFilters };
}
