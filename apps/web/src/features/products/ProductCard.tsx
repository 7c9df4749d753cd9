import { memo } from "react";
import { Link } from "../../lib/router.tsx";
import { ShoppingCart } from "lucide-react";
import type { Product } from "@cartner/contract";
import { Badge, Button, ButtonLink } from "../../components/ui/index.ts";
import { formatMoney } from "../../lib/format.ts";
import { formatCount, reviewsLabel } from "./format.ts";
import { ProductImage } from "./ProductImage.tsx";
import { productPath, type ProductLinkState } from "./product-links.ts";
import { StarRating } from "./StarRating.tsx";
import type { AddToCart } from "./use-add-to-cart.ts";

/** Cards per row on the widest layout (ProductGrid: 2 columns, 3 from `lg`). */
const FIRST_ROW = 3;

interface ProductCardProps {
  product: Product;
  /**
   * The card's place in the grid: the first row's images load at once (they are on screen when the
   * page opens, the first one is its largest paint), the others lazily as they scroll into view.
   */
  position?: number;
  onAddToCart: AddToCart;
  linkState: ProductLinkState;
}

/**
 * One product in the grid: image, name, price, stars, review count, View and add to cart.
 * Memoised: the grid holds the whole catalog, and the page re-renders for reasons (the filters
 * panel, the status line) that do not concern the cards.
 */
export const ProductCard = memo(function ProductCard({
  product,
  position = Infinity,
  onAddToCart,
  linkState,
}: ProductCardProps) {
  const to = productPath(product._id);
  const soldOut = product.stock <= 0;
  const adding = onAddToCart.isAdding(product._id);
  // Disabled with the reason as its tooltip (and accessible description): sold out, or a viewer.
  const addTitle = soldOut ? "Out of stock" : (onAddToCart.blockedReason ?? "Add to cart");
  return (
    <article className="group flex h-full flex-col overflow-hidden rounded-card bg-surface shadow-soft ring-1 ring-slate-900/5 transition-shadow hover:shadow-lift">
      {/* The image is a shortcut for pointer users; keyboard users have the View link. */}
      <Link to={to} state={linkState} tabIndex={-1} className="relative block">
        <ProductImage
          src={product.imageUrl}
          alt={product.name}
          eager={position < FIRST_ROW}
          priority={position === 0}
          className="transition-transform duration-300 group-hover:scale-[1.02]"
        />
        {soldOut && (
          <Badge tone="neutral" className="absolute top-2 left-2 bg-white/95">
            Out of stock
          </Badge>
        )}
      </Link>
      <div className="flex flex-1 flex-col gap-1.5 p-3 sm:p-4">
        <p
          data-testid="product-category"
          className="truncate text-xs font-semibold tracking-wide text-slate-500 uppercase"
        >
          {product.category}
        </p>
        <h3 className="line-clamp-2 min-h-[2lh] font-sans text-[0.9375rem] leading-snug font-semibold text-ink sm:text-base">
          {product.name}
        </h3>
        <div className="flex flex-wrap items-center gap-x-1.5 gap-y-0.5">
          <StarRating rating={product.rating} starClassName="size-3.5 sm:size-4" />
          <span className="text-xs text-slate-500">
            <span aria-hidden="true">({formatCount(product.reviews)})</span>
            <span className="sr-only">{reviewsLabel(product.reviews)}</span>
          </span>
        </div>
        <p
          data-testid="product-price"
          className="mt-auto pt-1 font-display text-lg font-bold text-ink"
        >
          {formatMoney(product.price)}
        </p>
        <div className="flex items-center gap-2 pt-1">
          <ButtonLink
            to={to}
            state={linkState}
            aria-label={`View ${product.name}`}
            variant="secondary"
            size="sm"
            className="flex-1"
          >
            View
          </ButtonLink>
          <Button
            size="sm"
            className="w-9 shrink-0 px-0 sm:w-auto sm:px-3"
            aria-label={`Add ${product.name} to cart`}
            title={addTitle}
            disabled={soldOut || onAddToCart.blockedReason !== null}
            loading={adding}
            onClick={() => onAddToCart(product)}
          >
            {!adding && <ShoppingCart aria-hidden="true" className="size-4 shrink-0" />}
            <span aria-hidden="true" className="hidden sm:inline">
              Add
            </span>
          </Button>
        </div>
      </div>
    </article>
  );
});

/** A card-sized placeholder while the grid loads: the card's layout, with bars for its text. */
export function ProductCardSkeleton() {
  const bar = "inline-block h-[0.75em] rounded bg-slate-200 align-middle";
  return (
    <div
      aria-hidden="true"
      className="flex h-full animate-pulse flex-col overflow-hidden rounded-card bg-surface shadow-soft ring-1 ring-slate-900/5"
    >
      <div className="aspect-square w-full bg-slate-200" />
      <div className="flex flex-1 flex-col gap-1.5 p-3 sm:p-4">
        <p className="text-xs">
          <span className={`${bar} w-1/3`} />
        </p>
        <p className="min-h-[2lh] text-[0.9375rem] leading-snug sm:text-base">
          <span className={`${bar} w-4/5`} />
        </p>
        <p className="text-xs">
          <span className={`${bar} w-1/2`} />
        </p>
        <p className="mt-auto pt-1 font-display text-lg">
          <span className={`${bar} w-1/3`} />
        </p>
        <div className="pt-1">
          <div className="h-9 w-full rounded-xl bg-slate-200" />
        </div>
      </div>
    </div>
  );
}
