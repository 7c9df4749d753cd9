import { SearchX } from "lucide-react";
import type { Product } from "@cartner/contract";
import { Button, Card, CardBody } from "../../components/ui/index.ts";
import { cn } from "../../lib/cn.ts";
import { ProductCard, ProductCardSkeleton } from "./ProductCard.tsx";
import type { ProductLinkState } from "./product-links.ts";
import type { AddToCart } from "./use-add-to-cart.ts";

export const EMPTY_MESSAGE = "No products match your filters.";
const SKELETON_COUNT = 6;

const gridClasses = "grid grid-cols-2 gap-3 sm:gap-5 lg:grid-cols-3";

interface ProductGridProps {
  products: Product[];
  /** A newer list is loading; the current one stays, dimmed. */
  updating: boolean;
  onAddToCart: AddToCart;
  linkState: ProductLinkState;
}

export function ProductGrid({ products, updating, onAddToCart, linkState }: ProductGridProps) {
  return (
    <ul
      aria-busy={updating || undefined}
      className={cn(gridClasses, "transition-opacity", updating && "opacity-60")}
    >
      {products.map((product, position) => (
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
