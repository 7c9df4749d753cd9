import { useCallback, useEffect, useRef, useState } from "react";
import { Link } from "../../lib/router.tsx";
import { ChevronLeft, ChevronRight } from "lucide-react";
import type { Product } from "@cartner/contract";
import { buttonClasses } from "../../components/ui/index.ts";
import { cn } from "../../lib/cn.ts";
import { formatMoney } from "../../lib/format.ts";
import { ProductImage } from "./ProductImage.tsx";
import { productPath, type ProductLinkState } from "./product-links.ts";
import { StarRating } from "./StarRating.tsx";

/** All other products: the same category first, then the rest, each in list order. */
export function similarProducts(current: Product, all: readonly Product[]): Product[] {
  const others = all.filter((p) => p._id !== current._id);
  return [
    ...others.filter((p) => p.category === current.category),
    ...others.filter((p) => p.category !== current.category),
  ];
}

interface SimilarProductsProps {
  products: readonly Product[];
  /** State for the links, so the back link still finds the list; null when opened directly. */
  linkState: ProductLinkState | null;
}

type Edge = { atStart: boolean; atEnd: boolean };

/** A horizontally scrolling row of product cards with previous/next buttons. */
export function SimilarProducts({ products, linkState }: SimilarProductsProps) {
  const scroller = useRef<HTMLUListElement>(null);
  const [edge, setEdge] = useState<Edge>({ atStart: true, atEnd: false });

  const measure = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    const atStart = el.scrollLeft <= 1;
    const atEnd = el.scrollLeft + el.clientWidth >= el.scrollWidth - 1;
    setEdge((prev) =>
      prev.atStart === atStart && prev.atEnd === atEnd ? prev : { atStart, atEnd },
    );
  }, []);

  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    // Fires once on observe, then whenever the row's width changes.
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [measure, products.length]);

  function scrollByPage(direction: 1 | -1) {
    const el = scroller.current;
    if (!el) return;
    const reduceMotion = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
    el.scrollBy({
      left: direction * Math.max(160, el.clientWidth * 0.85),
      behavior: reduceMotion ? "auto" : "smooth",
    });
  }

  const arrow = (direction: 1 | -1, disabled: boolean) => (
    <button
      type="button"
      aria-label={direction < 0 ? "Previous products" : "Next products"}
      aria-controls="similar-products-list"
      aria-disabled={disabled || undefined}
      onClick={() => {
        if (!disabled) scrollByPage(direction);
      }}
      className={buttonClasses({
        variant: "secondary",
        size: "icon",
        className: "rounded-full aria-disabled:cursor-default aria-disabled:opacity-40",
      })}
    >
      {direction < 0 ? (
        <ChevronLeft aria-hidden="true" className="size-5" />
      ) : (
        <ChevronRight aria-hidden="true" className="size-5" />
      )}
    </button>
  );

  return (
    <section aria-labelledby="similar-products-title" className="flex flex-col gap-4">
      <div className="flex items-center justify-between gap-3">
        <h2 id="similar-products-title" className="text-2xl font-bold">
          Similar Products
        </h2>
        {products.length > 0 && (
          <div className="flex gap-2">
            {arrow(-1, edge.atStart)}
            {arrow(1, edge.atEnd)}
          </div>
        )}
      </div>
      {products.length === 0 ? (
        <p className="text-slate-600">No other products yet.</p>
      ) : (
        <ul
          ref={scroller}
          id="similar-products-list"
          onScroll={measure}
          className="-mx-4 flex snap-x snap-mandatory scroll-px-4 gap-4 overflow-x-auto px-4 pt-1 pb-4 sm:mx-0 sm:scroll-px-0 sm:px-0"
        >
          {products.map((product) => (
            <li key={product._id} className="w-40 shrink-0 snap-start sm:w-48">
              <Link
                to={productPath(product._id)}
                state={linkState}
                className="group flex h-full flex-col overflow-hidden rounded-card bg-surface shadow-soft ring-1 ring-slate-900/5 transition-shadow hover:shadow-lift"
              >
                <ProductImage
                  src={product.imageUrl}
                  alt=""
                  sizes="(min-width: 640px) 12rem, 10rem"
                />
                <span className="flex flex-1 flex-col gap-1 p-3">
                  <span className="line-clamp-2 text-sm leading-snug font-semibold text-ink group-hover:text-primary-700">
                    {product.name}
                  </span>
                  <StarRating rating={product.rating} starClassName="size-3.5" />
                  <span className="mt-auto pt-1 font-display font-bold text-ink">
                    {formatMoney(product.price)}
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The row's loading state: card-sized placeholders. */
export function SimilarProductsSkeleton() {
  return (
    <div aria-hidden="true" className="flex gap-4 overflow-hidden">
      {Array.from({ length: 6 }, (_, i) => (
        <div
          key={i}
          className={cn(
            "w-40 shrink-0 animate-pulse overflow-hidden rounded-card bg-surface shadow-soft ring-1 ring-slate-900/5 sm:w-48",
          )}
        >
          <div className="aspect-square bg-slate-200" />
          <div className="flex flex-col gap-2 p-3">
            <div className="h-3.5 w-4/5 rounded bg-slate-200" />
            <div className="h-3 w-1/2 rounded bg-slate-200" />
            <div className="h-4 w-1/3 rounded bg-slate-200" />
          </div>
        </div>
      ))}
    </div>
  );
}
