import { useId, useState } from "react";
import { Download, History, PackageCheck, ReceiptText } from "lucide-react";
import type { Cart } from "@cartner/contract";
import { Badge, Button, ButtonLink, Container, EmptyState } from "../../components/ui/index.ts";
import { QueryList } from "../../components/QueryList.tsx";
import { ShowMore } from "../../components/ShowMore.tsx";
import { formatDate, formatMoney } from "../../lib/format.ts";
import { itemsLabel, sessionNameOf } from "./cart-model.ts";
import { CartSkeleton, CartTotal, CollapseToggle, PageLinks } from "./cart-parts.tsx";
import { useCartHistory } from "../../api/carts.ts";
import { useRefetchCartsOnSync } from "../../api/session-sync.ts";
import { CartLinesTable } from "./CartLinesTable.tsx";
import { summaryPath } from "./OrderSummaryCard.tsx";
import { useReceiptDownload, useSessionOrders } from "../../api/orders.ts";
import type { Order } from "@cartner/contract";

export const NO_PAST_CARTS_MESSAGE = "You have no past carts.";
export const DOWNLOAD_RECEIPT_LABEL = "Download Receipt";
export const NO_RECEIPT_HINT = "Ended without checkout: there is no receipt.";

/**
 * /cart-history: the read-only carts of the user's ended sessions, newest first a page at a time,
 * the first one open.
 */
export function CartHistoryPage() {
  const query = useCartHistory();
  useRefetchCartsOnSync();

  return (
    <Container className="flex flex-col gap-5 py-6 sm:py-8">
      <title>Cart History — Cartner</title>
      <header className="flex flex-col gap-2">
        <PageLinks
          links={[
            { to: "/", label: "Home" },
            { to: "/cart", label: "My Cart" },
          ]}
        />
        <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">Cart History</h1>
        <p className="text-slate-600">Carts from your ended sessions, read-only.</p>
      </header>
      <QueryList
        query={query}
        loading={<CartSkeleton label="Loading your past carts…" />}
        errorTitle="We couldn't load your past carts."
        empty={
          <EmptyState
            size="lg"
            icon={<History aria-hidden="true" className="size-7" />}
            title={NO_PAST_CARTS_MESSAGE}
          >
            <p>When a session ends, its cart is kept here with the prices everyone paid.</p>
            <ButtonLink to="/cart" variant="secondary" size="sm">
              Back to My Cart
            </ButtonLink>
          </EmptyState>
        }
      >
        {(carts) => (
          <>
            <HistoryList carts={carts} />
            <ShowMore query={query} what="carts" />
          </>
        )}
      </QueryList>
    </Container>
  );
}

function HistoryList({ carts }: { carts: readonly Cart[] }) {
  // The orders these carts became, read for the list at once (not one request per cart).
  const orders = useSessionOrders(
    carts.flatMap((cart) => (cart.sessionId?._id ? [cart.sessionId._id] : [])),
  );
  const [openIds, setOpenIds] = useState<ReadonlySet<string>>(
    () => new Set(carts[0] ? [carts[0]._id] : []),
  );
  function toggle(id: string) {
    setOpenIds((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }
  return (
    <ul className="flex flex-col gap-4">
      {carts.map((cart) => (
        <li key={cart._id}>
          <HistorySection
            cart={cart}
            order={cart.sessionId?._id ? orders.get(cart.sessionId._id) : undefined}
            open={openIds.has(cart._id)}
            onToggle={() => toggle(cart._id)}
          />
        </li>
      ))}
    </ul>
  );
}

function HistorySection({
  cart,
  order,
  open,
  onToggle,
}: {
  cart: Cart;
  /** The order this cart became, if any: its total adds fees and tax to the cart's. */
  order: Order | undefined;
  open: boolean;
  onToggle: () => void;
}) {
  const titleId = useId();
  const panelId = useId();
  const name = sessionNameOf(cart);
  const sessionId = cart.sessionId?._id;

  return (
    <section
      aria-labelledby={titleId}
      className="overflow-hidden rounded-card bg-surface shadow-soft ring-1 ring-slate-900/5"
    >
      <div className="flex items-start justify-between gap-3 p-4 sm:p-5">
        <div className="flex min-w-0 flex-col gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2 id={titleId} className="text-lg font-bold break-words sm:text-xl">
              {name}
            </h2>
            <Badge tone="neutral">Ended</Badge>
          </div>
          <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600">
            <div className="flex gap-1">
              <dt>Created</dt>
              <dd className="font-medium text-slate-800">{formatDate(cart.createdAt)}</dd>
            </div>
            <div className="flex gap-1">
              <dt className="sr-only">Total items</dt>
              <dd className="font-medium text-slate-800">{itemsLabel(cart.itemCount)}</dd>
            </div>
            <div className="flex gap-1">
              <dt>Total</dt>
              <dd>
                <span className="font-medium text-slate-800">{formatMoney(cart.totalPrice)}</span>{" "}
                before fees and tax
              </dd>
            </div>
            {order && (
              <div className="flex gap-1">
                <dt>Order total</dt>
                <dd>
                  <span className="font-medium text-slate-800">{formatMoney(order.total)}</span>{" "}
                  with fees and tax
                </dd>
              </div>
            )}
          </dl>
        </div>
        <CollapseToggle open={open} panelId={panelId} name={name} onToggle={onToggle} />
      </div>
      <div id={panelId} hidden={!open} className="border-t border-slate-100">
        {open && (
          <div className="flex flex-col gap-4 p-4 sm:p-5">
            {cart.products.length === 0 ? (
              <p className="rounded-2xl bg-slate-50 px-4 py-6 text-center text-slate-600">
                This cart was empty when the session ended.
              </p>
            ) : (
              <CartLinesTable lines={cart.products} caption={`Items in ${name}`} />
            )}
            <CartTotal total={cart.totalPrice} itemCount={cart.itemCount} />
            <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
              {sessionId && (
                <ButtonLink to={summaryPath(sessionId)} variant="secondary" size="sm">
                  <ReceiptText aria-hidden="true" className="size-4" />
                  View summary <span className="sr-only">of {name}</span>
                </ButtonLink>
              )}
              <ReceiptButton order={order} name={name} />
            </div>
          </div>
        )}
      </div>
    </section>
  );
}

/** The receipt of the order this cart became; a session ended without checkout has none. */
function ReceiptButton({ order, name }: { order: Order | undefined; name: string }) {
  const download = useReceiptDownload();
  const hintId = useId();
  if (!order) {
    return (
      <span className="flex flex-col gap-1 sm:items-end">
        <Button size="sm" disabled aria-describedby={hintId}>
          <Download aria-hidden="true" className="size-4" />
          {DOWNLOAD_RECEIPT_LABEL}
        </Button>
        <span id={hintId} className="text-xs text-slate-500">
          {NO_RECEIPT_HINT}
        </span>
      </span>
    );
  }
  return (
    <>
      <ButtonLink to={`/orders/${order._id}`} variant="secondary" size="sm">
        <PackageCheck aria-hidden="true" className="size-4" />
        Order {order.number}
      </ButtonLink>
      <Button size="sm" loading={download.isPending} onClick={() => download.mutate(order)}>
        {!download.isPending && <Download aria-hidden="true" className="size-4" />}
        {DOWNLOAD_RECEIPT_LABEL} <span className="sr-only">of {name}</span>
      </Button>
    </>
  );
}
