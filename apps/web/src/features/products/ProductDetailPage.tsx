import { useId, useState, type MouseEvent } from "react";
import { Link, useLocation, useParams } from "../../lib/router.tsx";
import {
  ArrowLeft,
  MessageSquare,
  PackageCheck,
  PackageX,
  RefreshCw,
  ShoppingCart,
  Users,
  Zap,
} from "lucide-react";
import { EXPRESS_CATEGORIES, type Product } from "@cartner/contract";
import { LostCart } from "../../components/illustrations/LostCart.tsx";
import { Badge, Button, ButtonLink, Card, CardBody, Container } from "../../components/ui/index.ts";
import { errorMessage } from "../../lib/api.ts";
import { formatMoney } from "../../lib/format.ts";
import { formatCount, formatRating, reviewsLabel } from "./format.ts";
import { ProductImage } from "./ProductImage.tsx";
import { readProductLinkState, type ProductLinkState } from "./product-links.ts";
import { useCategoryProducts, useProduct } from "../../api/products.ts";
import { isNotFound } from "../../lib/api.ts";
import { SimilarProducts, SimilarProductsSkeleton, similarProducts } from "./SimilarProducts.tsx";
import { StarRating } from "./StarRating.tsx";
import { useAddToCart } from "./use-add-to-cart.ts";
import { KeepPrivateFrom } from "../carts/index.ts";
import { useActiveSession } from "../../shared/active-session.ts";
import { useAuth } from "../../lib/auth-store.ts";

export const NOT_FOUND_MESSAGE = "Product not found.";
export const SESSION_PLACEHOLDER = "Session data not available";
export const CART_PLACEHOLDER = "Cart data not available";
export const NO_REVIEWS = "No reviews yet.";

const expressCategories: readonly string[] = EXPRESS_CATEGORIES;

/**
 * Back to the list the user came from. With history from the list (state from its links), it goes
 * back those entries, so the filters, results and scroll position are restored; opened directly
 * (a shared link, a new tab), it is an ordinary link to /products.
 */
function BackToProducts({ from }: { from: ProductLinkState | null }) {
  const href = `/products${from?.listSearch ?? ""}`;

  function onClick(event: MouseEvent<HTMLAnchorElement>) {
    const plainClick =
      event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
    // The state came with this entry from the list's links, so the list is `depth` entries back.
    if (from && plainClick && window.history.length > from.depth) {
      event.preventDefault();
      window.history.go(-from.depth);
    }
  }

  return (
    <Link
      to={href}
      onClick={onClick}
      className="inline-flex items-center gap-1.5 rounded-lg text-sm font-semibold text-primary-700 hover:text-primary-800 hover:underline"
    >
      <ArrowLeft aria-hidden="true" className="size-4" />
      Back to products
    </Link>
  );
}

function StockLine({ stock }: { stock: number }) {
  return stock > 0 ? (
    <p className="inline-flex items-center gap-1.5 text-sm font-semibold text-success-700">
      <PackageCheck aria-hidden="true" className="size-4" />
      In stock: {formatCount(stock)}
    </p>
  ) : (
    <p className="inline-flex items-center gap-1.5 text-sm font-semibold text-danger-700">
      <PackageX aria-hidden="true" className="size-4" />
      Out of stock
    </p>
  );
}

function ProductDetails({ product }: { product: Product }) {
  const addToCart = useAddToCart();
  const addBlockedId = useId();
  const { session } = useActiveSession();
  const { user } = useAuth();
  // "Keep it private from…": members of the active session the add is hidden from.
  const [hiddenFrom, setHiddenFrom] = useState<string[]>([]);
  // Only those shown checked: members of the session on screen (it may change meanwhile).
  const shownPicked = hiddenFrom.filter((id) => session?.invitedUsers.some((m) => m.userId === id));
  const express = expressCategories.includes(product.category);
  return (
    <div className="grid gap-8 md:grid-cols-2 lg:gap-12">
      <ProductImage
        src={product.imageUrl}
        alt={product.name}
        eager
        sizes="(min-width: 768px) 50vw, 100vw"
        className="rounded-card shadow-soft ring-1 ring-slate-900/5"
      />
      <div className="flex min-w-0 flex-col gap-4">
        <Badge tone={express ? "accent" : "primary"} className="self-start">
          {express && <Zap aria-hidden="true" className="size-3.5" />}
          {express ? `Cartner Express · ${product.category}` : product.category}
        </Badge>
        <h1 className="text-3xl leading-tight font-extrabold tracking-tight sm:text-4xl">
          {product.name}
        </h1>
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-600">
          <StarRating rating={product.rating} starClassName="size-5" />
          <span aria-hidden="true" className="font-semibold text-ink">
            {formatRating(product.rating)}
          </span>
          <span aria-hidden="true">·</span>
          <span>{reviewsLabel(product.reviews)}</span>
        </div>
        <p className="font-display text-3xl font-bold text-ink">{formatMoney(product.price)}</p>
        <StockLine stock={product.stock} />
        {product.color && (
          <p className="text-sm text-slate-600">
            <span className="font-semibold text-slate-800">Color:</span> {product.color}
          </p>
        )}
        <p className="leading-relaxed text-slate-700">{product.description}</p>
        <div className="flex flex-col gap-2">
          {/* Chosen before the add, which it changes (a present added private from the start). */}
          {session && !addToCart.blockedReason && (
            <KeepPrivateFrom
              members={session.invitedUsers}
              userId={user?._id}
              picked={shownPicked}
              onChange={setHiddenFrom}
            />
          )}
          <Button
            size="lg"
            className="self-stretch sm:self-start"
            disabled={product.stock <= 0 || addToCart.blockedReason !== null}
            loading={addToCart.isAdding(product._id)}
            title={addToCart.blockedReason ?? undefined}
            aria-describedby={addToCart.blockedReason ? addBlockedId : undefined}
            onClick={() => addToCart(product, { hiddenFrom: shownPicked })}
          >
            {!addToCart.isAdding(product._id) && (
              <ShoppingCart aria-hidden="true" className="size-5" />
            )}
            Add to Cart
          </Button>
          {addToCart.blockedReason && (
            <p id={addBlockedId} className="text-sm text-slate-600">
              {addToCart.blockedReason}
            </p>
          )}
        </div>

        <Card className="mt-2 bg-slate-50 shadow-none">
          <CardBody className="flex flex-col gap-3 p-4 sm:p-5">
            <h2 className="flex items-center gap-2 font-sans text-sm font-bold text-ink">
              <Users aria-hidden="true" className="size-4 text-primary-600" />
              Shopping with your group
            </h2>
            <dl className="grid gap-2 text-sm">
              <div className="flex flex-wrap gap-x-2">
                <dt className="font-semibold text-slate-800">Session:</dt>
                <dd className="text-slate-600">{SESSION_PLACEHOLDER}</dd>
              </div>
              <div className="flex flex-wrap gap-x-2">
                <dt className="font-semibold text-slate-800">Cart:</dt>
                <dd className="text-slate-600">{CART_PLACEHOLDER}</dd>
              </div>
            </dl>
          </CardBody>
        </Card>
      </div>
    </div>
  );
}

function DetailSkeleton() {
  return (
    <div aria-hidden="true" className="grid animate-pulse gap-8 md:grid-cols-2 lg:gap-12">
      <div className="aspect-square w-full rounded-card bg-slate-200" />
      <div className="flex flex-col gap-4">
        <div className="h-6 w-28 rounded-full bg-slate-200" />
        <div className="h-9 w-4/5 rounded bg-slate-200" />
        <div className="h-5 w-1/2 rounded bg-slate-200" />
        <div className="h-9 w-1/3 rounded bg-slate-200" />
        <div className="h-4 w-1/4 rounded bg-slate-200" />
        <div className="h-20 w-full rounded bg-slate-200" />
        <div className="h-12 w-40 rounded-xl bg-slate-200" />
      </div>
    </div>
  );
}

function Reviews() {
  return (
    <section aria-labelledby="reviews-title" className="flex flex-col gap-3">
      <h2 id="reviews-title" className="text-2xl font-bold">
        Reviews
      </h2>
      <p className="flex items-center gap-2 text-slate-600">
        <MessageSquare aria-hidden="true" className="size-5 text-slate-400" />
        {NO_REVIEWS}
      </p>
    </section>
  );
}

/** Products in the "Similar Products" row. */
const SIMILAR_COUNT = 12;

function Similar({ product, from }: { product: Product; from: ProductLinkState | null }) {
  // A page of its category, not the whole catalog (which may hold tens of thousands).
  const all = useCategoryProducts(product.category, SIMILAR_COUNT + 1);
  // Links from here keep the way back to the list, one entry further away.
  const linkState = from ? { listSearch: from.listSearch, depth: from.depth + 1 } : null;
  if (all.data) {
    return (
      <SimilarProducts
        products={similarProducts(product, all.data.products)}
        linkState={linkState}
      />
    );
  }
  if (all.isError) return null;
  return (
    <section
      aria-labelledby="similar-products-title"
      aria-busy="true"
      className="flex flex-col gap-4"
    >
      <h2 id="similar-products-title" className="text-2xl font-bold">
        Similar Products
      </h2>
      <SimilarProductsSkeleton />
    </section>
  );
}

/** /product/:id: one product, with its placeholders and the similar products. */
export function ProductDetailPage() {
  const { id = "" } = useParams();
  const location = useLocation();
  const from = readProductLinkState(location.state);
  const query = useProduct(id);
  const product = query.data;

  let body;
  if (product) {
    body = (
      <>
        <title>{`${product.name} — Cartner`}</title>
        <ProductDetails product={product} />
        <Reviews />
        <Similar product={product} from={from} />
      </>
    );
  } else if (query.isError && isNotFound(query.error)) {
    body = (
      <Card className="mx-auto w-full max-w-xl text-center">
        <title>Product Not Found — Cartner</title>
        <CardBody className="flex flex-col items-center gap-4">
          <LostCart className="max-w-56" />
          <h1 className="text-2xl font-bold sm:text-3xl">{NOT_FOUND_MESSAGE}</h1>
          <p className="text-slate-600">
            It may have been removed, or the link is wrong. Plenty more on the shelves, though.
          </p>
          <ButtonLink to="/products">Browse the marketplace</ButtonLink>
        </CardBody>
      </Card>
    );
  } else if (query.isError) {
    body = (
      <Card className="mx-auto w-full max-w-xl text-center">
        <title>Product — Cartner</title>
        <CardBody className="flex flex-col items-center gap-4">
          <h1 className="text-2xl font-bold">We couldn&apos;t load this product.</h1>
          <p className="text-slate-600">
            {errorMessage(query.error, "Check your connection and try again.")}
          </p>
          <Button onClick={() => void query.refetch()}>
            <RefreshCw aria-hidden="true" className="size-4" />
            Try again
          </Button>
        </CardBody>
      </Card>
    );
  } else {
    body = (
      <>
        <title>Product — Cartner</title>
        <p role="status" className="sr-only">
          Loading product…
        </p>
        <DetailSkeleton />
      </>
    );
  }

  return (
    <Container className="flex flex-col gap-10 py-6 sm:py-10">
      <div className="-mb-4 sm:-mb-2">
        <BackToProducts from={from} />
      </div>
      {body}
    </Container>
  );
}
