import { useCallback, useDeferredValue, useId, useMemo, useRef, useState } from "react";
import { SlidersHorizontal, Sparkles } from "lucide-react";
import { Badge, Button, Container, LoadError } from "../../components/ui/index.ts";
import { errorMessage } from "../../lib/api.ts";
import { cn } from "../../lib/cn.ts";
import { LG_MEDIA_QUERY, useMediaQuery } from "../../lib/use-media-query.ts";
import { FiltersPanel } from "./FiltersPanel.tsx";
import { DEFAULT_FILTERS, countActiveFilters, filtersToQuery } from "./filters.ts";
import { formatCount, prepareGridFormatters } from "./format.ts";
import { MarketplaceIllustration } from "./MarketplaceIllustration.tsx";
import { MoreProducts, NoProducts, ProductGrid, ProductGridSkeleton } from "./ProductGrid.tsx";
import { useListLinkState } from "./product-links.ts";
import { useProductList } from "../../api/products.ts";
import { SearchBar } from "./SearchBar.tsx";
import { useAddToCart } from "./use-add-to-cart.ts";
import { useProductFilters } from "./use-product-filters.ts";

export const LOAD_ERROR_FALLBACK = "Check your connection and try again.";

// The grid's count and rating formatters, made in a task of their own as soon as this chunk has
// run, while the list is usually still on its way, rather than inside the render of the first
// cards (the locale's data is loaded by then: prepareFormatters in the entry).
if (typeof window !== "undefined") setTimeout(prepareGridFormatters, 0);

function resultSummary(total: number, q: string): string {
  const count = `${formatCount(total)} ${total === 1 ? "product" : "products"}`;
  return q ? `${count} for “${q}”` : count;
}

/** /products: search, filters, sort and the grid, all driven by the URL's query string. */
export function ProductsPage() {
  const { filters, setFilters } = useProductFilters();
  const list = useProductList(filtersToQuery(filters));
  const addToCart = useAddToCart();
  const linkState = useListLinkState();
  const panelId = useId();
  const resultsHeadingId = useId();
  const [filtersOpen, setFiltersOpen] = useState(false);
  // From `lg` up the filters sit beside the grid; below, the Filters button shows and hides them.
  const filtersBeside = useMediaQuery(LG_MEDIA_QUERY);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const activeCount = countActiveFilters(filters);

  const onSearch = useCallback(
    (q: string, how: "typing" | "submit") =>
      setFilters({ ...filters, q }, how === "typing" ? "search" : undefined),
    [filters, setFilters],
  );
  const clearAll = useCallback(() => setFilters(DEFAULT_FILTERS), [setFilters]);

  const pages = list.data?.pages;
  // The pages loaded so far, as one list, and the total of all matches (the first page says it).
  const data = useMemo(
    () =>
      pages && {
        products: pages.flatMap((page) => page.products),
        total: pages[0]?.total ?? 0,
      },
    [pages],
  );
  // The grid (the whole catalog) is the heaviest render in the app. A new list (another filter, a
  // search being typed) is drawn from a deferred value: an interruptible background update in
  // small slices, so taps and typing stay responsive on a phone while the old list stays on
  // screen. The first list is drawn at once: as a background update every commit elsewhere on the
  // page (the session bar, live status, other queries arriving) restarted it, and on a busy phone
  // the grid could stay a skeleton for many seconds.
  const deferred = useDeferredValue(data);
  const shown = deferred ?? data;
  let status: string;
  // The count is announced once the grid on screen shows the list for the current filters.
  if (data && shown === data && !list.isPlaceholderData) {
    status = resultSummary(data.total, filters.q);
  } else if (list.isError) status = "Products could not be loaded.";
  else status = "Loading products…";

  return (
    <>
      <title>Marketplace — Cartner</title>
      <section
        aria-labelledby="marketplace-title"
        className="relative overflow-hidden bg-linear-to-b from-primary-50/80 via-primary-50/30 to-canvas"
      >
        <Container className="grid items-center gap-6 py-8 sm:py-10 md:grid-cols-[1fr_16rem] lg:grid-cols-[1fr_20rem]">
          <div className="flex min-w-0 flex-col gap-4">
            <Badge tone="accent" className="self-start px-3 py-1 text-sm">
              <Sparkles aria-hidden="true" className="size-4" />
              Shop together, pay your share
            </Badge>
            <h1
              id="marketplace-title"
              className="text-3xl leading-tight font-extrabold tracking-tight sm:text-4xl"
            >
              Marketplace
            </h1>
            <p className="max-w-xl text-slate-600 sm:text-lg">
              Everything your group needs, from gadgets to groceries. Find it here, add it to your
              shared cart, and split the bill fairly.
            </p>
            <SearchBar value={filters.q} onSearch={onSearch} className="max-w-xl" />
          </div>
          <MarketplaceIllustration className="hidden max-w-xs justify-self-center md:block" />
        </Container>
      </section>

      <Container className="grid gap-6 pt-4 pb-12 sm:pt-6 lg:grid-cols-[15rem_1fr] lg:gap-8">
        <div className="flex flex-col gap-3 lg:block">
          <Button
            ref={toggleRef}
            variant="secondary"
            className="self-start lg:hidden"
            aria-expanded={filtersOpen}
            aria-controls={panelId}
            onClick={() => setFiltersOpen((open) => !open)}
          >
            <SlidersHorizontal aria-hidden="true" className="size-4" />
            Filters
            {activeCount > 0 && (
              <span className="rounded-full bg-primary-600 px-2 py-0.5 text-xs text-white">
                {activeCount}
                <span className="sr-only"> active</span>
              </span>
            )}
          </Button>
          <FiltersPanel
            id={panelId}
            shown={filtersOpen || filtersBeside}
            filters={filters}
            onChange={setFilters}
            footer={
              <Button
                fullWidth
                className="mt-1 lg:hidden"
                onClick={() => {
                  setFiltersOpen(false);
                  toggleRef.current?.focus();
                }}
              >
                {data ? `Show ${resultSummary(data.total, "")}` : "Show products"}
              </Button>
            }
            className={cn(
              "rounded-card bg-surface p-5 shadow-soft ring-1 ring-slate-900/5 lg:block",
              filtersOpen ? "block" : "hidden",
            )}
          />
        </div>

        <section aria-labelledby={resultsHeadingId} className="flex min-w-0 flex-col gap-4">
          <div className="flex min-h-9 items-center justify-between gap-3">
            <h2 id={resultsHeadingId} className="sr-only">
              Products
            </h2>
            <p role="status" className="text-sm font-medium text-slate-600">
              {status}
            </p>
          </div>

          {shown ? (
            shown.products.length > 0 ? (
              <>
                <ProductGrid
                  products={shown.products}
                  updating={list.isPlaceholderData || shown !== data}
                  onAddToCart={addToCart}
                  linkState={linkState}
                />
                {shown === data && list.hasNextPage && (
                  <MoreProducts
                    shown={shown.products.length}
                    total={shown.total}
                    loading={list.isFetchingNextPage}
                    failed={list.isFetchNextPageError}
                    onMore={() => {
                      if (!list.isFetching) void list.fetchNextPage();
                    }}
                  />
                )}
              </>
            ) : (
              <NoProducts onClear={clearAll} />
            )
          ) : list.isError ? (
            <LoadError
              title="We couldn't load the products."
              message={errorMessage(list.error, LOAD_ERROR_FALLBACK)}
              onRetry={() => void list.refetch()}
              retrying={list.isFetching}
            />
          ) : (
            <ProductGridSkeleton />
          )}
        </section>
      </Container>
    </>
  );
}
