import { useCallback, useEffect, useId, useMemo, useState, type ReactNode } from "react";
import { Link, useParams } from "../../lib/router.tsx";
import { History, Info, PackageCheck, ShoppingBag, ShoppingCart } from "lucide-react";
import type { Cart, CartLine, Order } from "@cartner/contract";
import { useDropEndedCart } from "../../api/carts.ts";
import { EndSessionDialog } from "../../shared/EndSessionDialog.tsx";
import { useSessionActions } from "../../shared/session-actions.ts";
import {
  Badge,
  Button,
  ButtonLink,
  ConfirmDialog,
  Container,
  LoadError,
} from "../../components/ui/index.ts";
import { errorMessage } from "../../lib/api.ts";
import { useAuth } from "../../lib/auth-store.ts";
import { isNotFound } from "../../lib/api.ts";
import {
  findRouteCart,
  removalConfirmText,
  removalNeedsConfirm,
  sessionNameOf,
} from "./cart-model.ts";
import { withPendingWrites } from "./pending-writes.ts";
import { CartSkeleton, PageLinks } from "./cart-parts.tsx";
import { CLEAR_CONFIRM, useCartActions, useCartLineActions } from "./cart-actions.ts";
import { useCartLookup, useCarts } from "../../api/carts.ts";
import { usePendingWrites } from "../../api/cart-writes.ts";
import { useRefetchCartsOnSync } from "../../api/session-sync.ts";
import { CartSection } from "./CartSection.tsx";
import { NoCarts } from "./NoCarts.tsx";
import { formatMoney } from "../../lib/format.ts";
import { PAID_BUTTON, canSayPaid, myShare, shareStatusLabel, shareTone } from "../orders/index.ts";
import { useOrderAction, useSessionOrderQuery } from "../../api/orders.ts";

export function activeCartsBanner(count: number): string {
  return `You have ${count} active cart(s).`;
}

/** /cart, /cart/:sessionId and /cart/id/:cartId: every cart of the user's active sessions. */
export function CartPage() {
  const { sessionId, cartId } = useParams();
  const query = useCarts();
  useRefetchCartsOnSync();
  const [announcement, setAnnouncement] = useState("");
  const target = useMemo(() => ({ sessionId, cartId }), [sessionId, cartId]);

  let body;
  if (query.data) {
    const carts = query.data;
    const routeCart = findRouteCart(carts, target);
    const missing = Boolean(sessionId || cartId) && !routeCart;
    body = (
      <>
        <p
          role="status"
          className="flex items-center gap-2 rounded-xl bg-primary-50 px-4 py-3 text-sm font-semibold text-primary-900 ring-1 ring-primary-100 ring-inset"
        >
          <ShoppingCart aria-hidden="true" className="size-4 shrink-0 text-accent-600" />
          {activeCartsBanner(carts.length)}
        </p>
        {missing ? (
          // A checked-out session's cart shows its order instead of "no carts".
          <MissingRouteCart
            target={target}
            onFoundActive={query.refetch}
            emptyState={carts.length === 0 ? <NoCarts /> : null}
          />
        ) : (
          carts.length === 0 && <NoCarts />
        )}
        {carts.length === 0 ? null : (
          <CartList
            // A new route target starts over: its cart opens.
            key={`${sessionId ?? ""}|${cartId ?? ""}`}
            carts={carts}
            initialOpenId={routeCart?._id ?? carts[0]?._id ?? null}
            scrollToOpen={routeCart !== undefined && routeCart !== carts[0]}
            announce={setAnnouncement}
          />
        )}
      </>
    );
  } else if (query.isError) {
    body = (
      <LoadError
        title="We couldn't load your carts."
        message={errorMessage(query.error, "Check your connection and try again.")}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else {
    body = <CartSkeleton label="Loading your carts…" />;
  }

  return (
    <Container className="flex flex-col gap-5 py-6 sm:py-8">
      <title>My Cart — Cartner</title>
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex flex-col gap-2">
          <PageLinks
            links={[
              { to: "/", label: "Home" },
              { to: "/cart-history", label: "Cart History" },
            ]}
          />
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">My Cart</h1>
        </div>
        <ButtonLink to="/products" variant="secondary" className="self-start sm:self-auto">
          <ShoppingBag aria-hidden="true" className="size-4" />
          Continue Shopping
        </ButtonLink>
      </header>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
      {body}
    </Container>
  );
}

/**
 * The route names a cart the active list lacks: its session was checked out (its order is shown),
 * ended, or it is not ours to see. `emptyState` follows the notice unless there is an order.
 */
function MissingRouteCart({
  target,
  onFoundActive,
  emptyState,
}: {
  target: { sessionId?: string | undefined; cartId?: string | undefined };
  onFoundActive: () => unknown;
  emptyState: ReactNode;
}) {
  const lookup = useCartLookup(
    {
      ...(target.sessionId ? { sessionId: target.sessionId } : {}),
      ...(target.cartId ? { cartId: target.cartId } : {}),
    },
    true,
  );
  const cart = lookup.data;
  const activeNow = cart?.status === "active" && cart.sessionId?.status === "active";
  const orderSessionId = cart?.sessionId?._id ?? target.sessionId;
  const orders = useSessionOrderQuery(orderSessionId ?? "");
  const order = orderSessionId ? orders.data : undefined;

  useEffect(() => {
    // The list was older than this cart (e.g. a session created a moment ago): load it again.
    if (activeNow) void onFoundActive();
  }, [activeNow, onFoundActive]);

  if (order) return <CheckedOutOrder order={order} />;
  // Wait for the orders too: an ended session may have become an order.
  if (lookup.isPending || activeNow || (cart && orders.isPending && orderSessionId)) return null;
  let text;
  if (cart) {
    text = (
      <>
        The session “{sessionNameOf(cart)}” has ended, so its cart is read-only now. Find it in{" "}
        <Link to="/cart-history" className="font-semibold text-primary-700 underline">
          Cart History
        </Link>
        .
      </>
    );
  } else if (isNotFound(lookup.error)) {
    text = <>We couldn&apos;t find that cart. It may be gone, or you are not in its session.</>;
  } else {
    text = <>{errorMessage(lookup.error, "We couldn't load that cart.")}</>;
  }
  return (
    <>
      <p className="flex items-start gap-2 rounded-xl bg-accent-50 px-4 py-3 text-sm text-accent-900 ring-1 ring-accent-200 ring-inset">
        <History aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent-700" />
        <span>{text}</span>
      </p>
      {emptyState}
    </>
  );
}

/** The order a checked-out session's cart became: its number, my share, and paying it. */
function CheckedOutOrder({ order }: { order: Order }) {
  const { user } = useAuth();
  const headingId = useId();
  const mine = myShare(order, user?._id);
  const isPayee = order.payee._id === user?._id;
  const action = useOrderAction(order._id);
  const canPay = mine !== undefined && !isPayee && canSayPaid(mine);
  return (
    <section
      aria-labelledby={headingId}
      data-testid="checked-out-order"
      className="flex flex-col gap-4 rounded-card bg-surface p-4 shadow-soft ring-1 ring-slate-900/5 sm:p-6"
    >
      <div className="flex flex-col gap-2">
        <Badge tone="success" className="self-start">
          <PackageCheck aria-hidden="true" className="size-3.5" />
          Checked out
        </Badge>
        <h2 id={headingId} className="text-xl font-bold sm:text-2xl">
          Order {order.number}
        </h2>
        <p className="text-slate-700">
          The cart of “<span className="break-words">{order.sessionName}</span>” was checked out by{" "}
          {order.placedBy.name}. {isPayee ? "You" : order.payee.name} paid the shop.
        </p>
      </div>
      {mine && (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <p className="font-semibold text-ink tabular-nums">
            Your share {formatMoney(mine.total)}
          </p>
          <Badge tone={shareTone(mine)}>{isPayee ? "Paid the shop" : shareStatusLabel(mine)}</Badge>
        </div>
      )}
      {canPay && (
        <p className="text-sm text-slate-600">
          Pay {order.payee.name} your share, then say so here.
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        {canPay && (
          <Button loading={action.isPending} onClick={() => action.mutate({ kind: "paid" })}>
            {PAID_BUTTON}
          </Button>
        )}
        <ButtonLink to={`/orders/${order._id}`} variant="secondary">
          View order {order.number}
        </ButtonLink>
      </div>
    </section>
  );
}

type Pending =
  { kind: "end" | "clear"; cart: Cart } | { kind: "line"; cart: Cart; line: CartLine } | null;

function CartList({
  carts,
  initialOpenId,
  scrollToOpen,
  announce,
}: {
  carts: Cart[];
  initialOpenId: string | null;
  scrollToOpen: boolean;
  announce: (message: string) => void;
}) {
  const { user } = useAuth();
  const userId = user?._id ?? null;
  const [openIds, setOpenIds] = useState<ReadonlySet<string>>(
    () => new Set(initialOpenId ? [initialOpenId] : []),
  );
  // The order at first load stays while the user works (a change would otherwise move a cart to
  // the top under their pointer); carts that appear later go first.
  const [order] = useState(() => carts.map((cart) => cart._id));
  const ordered = useMemo(() => {
    const known = carts
      .filter((cart) => order.includes(cart._id))
      .sort((a, b) => order.indexOf(a._id) - order.indexOf(b._id));
    return [...carts.filter((cart) => !order.includes(cart._id)), ...known];
  }, [carts, order]);
  // Changes not yet confirmed (on their way, or queued offline) are drawn on top of each cart.
  const writes = usePendingWrites();
  const me = useMemo(() => (user ? { _id: user._id, name: user.name } : null), [user]);
  const shown = useMemo(
    () => ordered.map((cart) => withPendingWrites(cart, writes, me)),
    [ordered, writes, me],
  );
  const [pending, setPending] = useState<Pending>(null);
  const { changeQuantity, removeLine } = useCartLineActions(announce, userId);
  const { clear } = useCartActions();
  const dropEndedCart = useDropEndedCart();
  const { end } = useSessionActions({ onDone: dropEndedCart });

  /** Someone else's line, or one shared with others, is removed only after a confirm. */
  const askToRemove = useCallback(
    (cart: Cart, line: CartLine) => {
      if (removalNeedsConfirm(line, userId)) setPending({ kind: "line", cart, line });
      else removeLine(cart, line);
    },
    [removeLine, userId],
  );

  useEffect(() => {
    if (!scrollToOpen || !initialOpenId) return;
    document
      .querySelector(`[data-cart-id="${CSS.escape(initialOpenId)}"]`)
      ?.scrollIntoView?.({ block: "start" });
    // Only on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const toggle = useCallback((id: string) => {
    setOpenIds((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);

  function confirm() {
    const action = pending;
    setPending(null);
    if (action?.kind === "end" && action.cart.sessionId?._id) end.mutate(action.cart.sessionId._id);
    if (action?.kind === "clear") clear.mutate(action.cart);
    if (action?.kind === "line") removeLine(action.cart, action.line);
  }

  const pendingName = pending ? sessionNameOf(pending.cart) : "";
  const lineConfirm = pending?.kind === "line" ? removalConfirmText(pending.line, userId) : null;

  return (
    <>
      <ul className="flex flex-col gap-4">
        {shown.map(({ cart, lines, unsent }) => (
          <li key={cart._id} data-cart-id={cart._id} className="scroll-mt-24">
            <CartSection
              cart={cart}
              lineStates={lines}
              unsent={unsent}
              userId={userId}
              open={openIds.has(cart._id)}
              onToggle={() => toggle(cart._id)}
              onChangeQuantity={changeQuantity}
              onRemoveLine={askToRemove}
              onClear={(c) => setPending({ kind: "clear", cart: c })}
              onEnd={(c) => setPending({ kind: "end", cart: c })}
              clearing={clear.isPending && clear.variables?._id === cart._id}
              ending={end.isPending && end.variables === cart.sessionId?._id}
            />
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={pending?.kind === "clear"}
        title={CLEAR_CONFIRM}
        description={
          <>Every item in “{pendingName}” is removed, including the ones others added.</>
        }
        confirmLabel="Clear Cart"
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
      <ConfirmDialog
        open={lineConfirm !== null}
        title={lineConfirm?.title ?? ""}
        description={lineConfirm?.description}
        confirmLabel="Remove"
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
      <EndSessionDialog
        sessionName={pendingName}
        open={pending?.kind === "end"}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
      <p className="flex items-start gap-2 text-xs text-slate-500">
        <Info aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
        Changes by others in your sessions show up here within a few seconds.
      </p>
    </>
  );
}
