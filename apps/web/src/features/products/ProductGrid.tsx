import { startTransition, useEffect, useRef, useState } from "react";
import { SearchX } from "lucide-react";
import type { Product } from "@cartner/contract";
import { Button, Card, CardBody } from "../../components/ui/index.ts";
import { cn } from "../../lib/cn.ts";
import { isHistoryTraversal } from "../../lib/router.tsx";
import { LG_MEDIA_QUERY, useMediaQuery } from "../../lib/use-media-query.ts";
import { formatCount } from "./format.ts";
import { ProductCard, ProductCardSkeleton } from "./ProductCard.tsx";
import type { ProductLinkState } from "./product-links.ts";
import type { AddToCart } from "./use-add-to-cart.ts";

export const EMPTY_MESSAGE = "No products match your filters.";
const SKELETON_COUNT = 6;

const gridClasses = "grid grid-cols-2 gap-3 sm:gap-5 lg:grid-cols-3";

/** Cards added to the grid per step while it is first being drawn (see useProgressiveCount). */
export const GRID_BATCH = 6;

/**
 * How many of `total` cards to draw: all of them, except while the grid is first being drawn.
 * Drawing the whole catalog in one go (React building every card, then the browser styling and
 * laying them out) held a phone's main thread for a quarter of a second and more whenever the list
 * arrived after the page was on screen (docs/benchmarks.md). The first row
 * (`first` cards, with the page's largest image) comes with the list; then `batch` cards at a
 * time, each a low-priority update (a transition, which React renders in short slices, so a tap or
 * a keystroke goes first), started in a task of its own once the one before is committed. Later
 * lists (a filter, a search) are drawn whole: the page renders them in the background already
 * (useDeferredValue), and a grid that shrank and grew again would move the page under a reader who
 * had scrolled down. For the same reason a grid drawn on Back or Forward (the browser restoring the
 * reader's scroll position) is drawn whole at once, as before.
 */
export function useProgressiveCount(total: number, first: number, batch = GRID_BATCH): number {
  const [limit, setLimit] = useState(() => (isHistoryTraversal() ? Infinity : first));
  const [done, setDone] = useState(false);
  if (!done && limit >= total) setDone(true);
  useEffect(() => {
    if (done || limit >= total) return;
    const timer = setTimeout(() => startTransition(() => setLimit((n) => n + batch)), 0);
    return () => clearTimeout(timer);
  }, [done, limit, total, batch]);
  return done ? total : Math.min(limit, total);
}

interface ProductGridProps {
  products: Product[];
  /** A newer list is loading; the current one stays, dimmed. */
  updating: boolean;
  onAddToCart: AddToCart;
  linkState: ProductLinkState;
}

export function ProductGrid({ products, updating, onAddToCart, linkState }: ProductGridProps) {
  // One row first: three cards from `lg` up, two below (gridClasses).
  const columns = useMediaQuery(LG_MEDIA_QUERY) ? 3 : 2;
  const count = useProgressiveCount(products.length, columns);
  // Busy until every card is there, so assistive technology (and tests) read the whole list.
  const drawing = count < products.length;
  return (
    <ul
      aria-busy={updating || drawing || undefined}
      className={cn(gridClasses, "transition-opacity", updating && "opacity-60")}
    >
      {products.slice(0, count).map((product, position) => (
        // Off-screen cards skip style, layout and paint until they scroll near the viewport: the
        // whole catalog at once is a long main-thread task on a phone. The intrinsic size is about
        // one card, so the scrollbar stays steady.
        <li
          key={product._id}
          className="[contain-intrinsic-size:auto_22rem] [content-visibility:auto]"
        >
          <ProductCard
            product={product}
            position={position}
            onAddToCart={onAddToCart}
            linkState={linkState}
          />
        </li>
      ))}
    </ul>
  );
}

interface MoreProductsProps {
  /** Cards on screen, and matches in all. */
  shown: number;
  total: number;
  loading: boolean;
  failed: boolean;
  onMore: () => void;
}

/**
 * Under the grid while more matches remain: the next page loads when this comes near the bottom
 * of the screen (scrolling on), or with the button (keyboard, screen readers, or after a failure).
 */
export function MoreProducts({ shown, total, loading, failed, onMore }: MoreProductsProps) {
  const ref = useRef<HTMLDivElement>(null);
  const onMoreRef = useRef(onMore);
  useEffect(() => {
    onMoreRef.current = onMore;
  });
  useEffect(() => {
    const el = ref.current;
    if (!el || failed || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) onMoreRef.current();
      },
      { rootMargin: "600px 0px" },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [failed, shown]);
  return (
    <div ref={ref} className="flex flex-col items-center gap-2 pt-2">
      <p className="text-sm text-slate-600">
        Showing {formatCount(shown)} of {formatCount(total)}
      </p>
      {failed && (
        <p role="alert" className="text-sm text-red-700">
          More products could not be loaded.
        </p>
      )}
      <Button variant="secondary" loading={loading} onClick={onMore}>
        {failed ? "Try again" : "Show more products"}
      </Button>
    </div>
  );
}

export function ProductGridSkeleton() {
  return (
    <div className={gridClasses}>
      {Array.from({ length: SKELETON_COUNT }, (_, i) => (
        <ProductCardSkeleton key={i} />
      ))}
    </div>
  );
}

export function NoProducts({ onClear }: { onClear: () => void }) {
  return (
    <Card>
      <CardBody className="flex flex-col items-center gap-3 text-center">
        <span className="flex size-14 items-center justify-center rounded-full bg-primary-50 text-primary-600">
          <SearchX aria-hidden="true" className="size-7" />
        </span>
        <p className="font-display text-lg font-semibold text-ink">{EMPTY_MESSAGE}</p>
        <p className="max-w-sm text-sm text-slate-600">
          Try another search, widen the price range or pick fewer categories.
        </p>
        <Button variant="secondary" onClick={onClear} className="mt-1">
          Clear filters
        </Button>
      </CardBody>
    </Card>
  );
}
