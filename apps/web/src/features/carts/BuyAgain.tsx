import { useEffect, useId, useRef, useState } from "react";
import { History, Plus } from "lucide-react";
import type { BuyAgainItem, Cart } from "@cartner/contract";
import { useBuyAgain } from "../../api/carts.ts";
import { cartWrite, useCartWrites } from "../../api/cart-writes.ts";
import { Button } from "../../components/ui/index.ts";
import { formatMoney } from "../../lib/format.ts";
import { LineImage } from "./cart-parts.tsx";

export const BUY_AGAIN_TITLE = "Buy again";
export const BUY_AGAIN_LOADING = "Looking for what this group bought before…";
export const BUY_AGAIN_FAILED = "We couldn't load what this group bought before.";
/** How many the server is asked for, and how many show before "Show more". */
export const BUY_AGAIN_LIMIT = 12;
export const BUY_AGAIN_SHOWN = 4;

/** "Bought once", "Bought 3 times". */
export function boughtText(times: number): string {
  return times === 1 ? "Bought once" : `Bought ${times} times`;
}

/** A free line's name as the server compares it: case and outer spaces aside. */
const freeKey = (name: string) => name.trim().toLowerCase();

/** An offer's key: its product, or a free line's name. */
export const offerKey = (item: BuyAgainItem) => item.productId ?? `free:${freeKey(item.name)}`;

/**
 * What the group bought before that the cart does not hold (unconfirmed adds included): a product
 * not in a line, a free line whose name no free line of the cart has.
 */
export function offersFor(items: readonly BuyAgainItem[], cart: Cart): BuyAgainItem[] {
  const held = new Set(
    cart.products.map((line) =>
      line.productId._id === null ? `free:${freeKey(line.productId.name)}` : line.productId._id,
    ),
  );
  return items.filter((item) => !held.has(offerKey(item)));
}

/**
 * The cart's "Buy again" list, for members who may add: each past purchase with its picture,
 * name, price now and how many times the group bought it, and an Add button: a product goes as
 * the same cart write as Add to Cart, a free line by its name at what was paid for it last time
 * (a cart write too: queued offline; its pending line takes it off the list at once).
 * Hidden when there is nothing to offer.
 */
export function BuyAgain({ cart }: { cart: Cart }) {
  const headingId = useId();
  const listId = useId();
  const query = useBuyAgain(cart._id, BUY_AGAIN_LIMIT);
  const send = useCartWrites();
  const [showAll, setShowAll] = useState(false);
  // Once something was added here, an emptied list says so (and keeps the focus) instead of going.
  const [added, setAdded] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // After an add the item leaves the list: focus moves to the Add button now in its place.
  const focusAfter = useRef<{ index: number; key: string } | null>(null);

  const offers = query.data ? offersFor(query.data, cart) : [];
  const shown = showAll ? offers : offers.slice(0, BUY_AGAIN_SHOWN);
  const hidden = offers.length - shown.length;

  // Every render: once the added item has left the list (the cart draws its pending line).
  useEffect(() => {
    const after = focusAfter.current;
    if (!after || shown.some((offer) => offerKey(offer) === after.key)) return;
    focusAfter.current = null;
    const buttons = listRef.current?.querySelectorAll<HTMLButtonElement>("button[data-add]");
    const target = buttons?.[Math.min(after.index, buttons.length - 1)];
    (target ?? headingRef.current)?.focus();
  });

  if (query.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 px-1 text-sm text-slate-500">
        <History aria-hidden="true" className="size-4 shrink-0" />
        {BUY_AGAIN_LOADING}
      </p>
    );
  }
  if (query.isError) {
    return (
      <p className="flex flex-wrap items-center gap-x-2 px-1 text-sm text-slate-600">
        {BUY_AGAIN_FAILED}
        <Button variant="link" size="sm" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </p>
    );
  }
  if (offers.length === 0 && !added) return null;

  function add(item: BuyAgainItem, index: number) {
    const { productId, name, price, imageUrl } = item;
    if (productId === null) {
      send(
        cartWrite({
          op: "freeLine",
          cartId: cart._id,
          body: { name, quantity: 1, ...(price > 0 ? { estimatedPrice: price } : {}) },
        }),
      );
    } else {
      send(
        cartWrite({
          op: "add",
          cartId: cart._id,
          product: { _id: productId, name, price, imageUrl },
        }),
      );
    }
    focusAfter.current = { index, key: offerKey(item) };
    setAdded(true);
  }

  return (
    <section
      aria-labelledby={headingId}
      data-testid="buy-again"
      className="flex flex-col gap-2 rounded-2xl bg-slate-50 p-3 ring-1 ring-slate-900/5 ring-inset sm:p-4"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <h3
          id={headingId}
          ref={headingRef}
          tabIndex={-1}
          className="flex items-center gap-2 font-bold text-ink outline-none"
        >
          <History aria-hidden="true" className="size-4 text-primary-700" />
          {BUY_AGAIN_TITLE}
        </h3>
        <p className="text-xs text-slate-500">What this group bought before, most often first</p>
      </div>
      {offers.length === 0 && (
        <p className="text-sm text-slate-600">
          Everything this group bought before is in the cart.
        </p>
      )}
      <ul id={listId} ref={listRef} className="grid gap-x-4 sm:grid-cols-2">
        {shown.map((item, index) => (
          <li
            key={offerKey(item)}
            className="flex min-w-0 items-center gap-3 border-t border-slate-200/70 py-2 first:border-t-0 sm:[&:nth-child(2)]:border-t-0"
          >
            <LineImage src={item.imageUrl} className="size-11 rounded-lg" />
            <div className="flex min-w-0 flex-1 flex-col">
              <span className="line-clamp-2 font-semibold break-words text-ink">{item.name}</span>
              <span className="text-sm text-slate-600 tabular-nums">
                {formatMoney(item.price)} ·{" "}
                <span className="whitespace-nowrap">{boughtText(item.times)}</span>
              </span>
            </div>
            <Button
              data-add
              variant="secondary"
              size="sm"
              className="shrink-0"
              onClick={() => add(item, index)}
            >
              <Plus aria-hidden="true" className="size-4" />
              Add <span className="sr-only">{item.name}</span>
            </Button>
          </li>
        ))}
      </ul>
      {(hidden > 0 || showAll) && offers.length > BUY_AGAIN_SHOWN && (
        <Button
          variant="link"
          size="sm"
          className="self-start"
          aria-expanded={showAll}
          aria-controls={listId}
          onClick={() => setShowAll((all) => !all)}
        >
          {showAll ? "Show fewer" : `Show ${hidden} more`}
        </Button>
      )}
    </section>
  );
}
