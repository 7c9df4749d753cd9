import { Link } from "../../lib/router.tsx";
import { FileSpreadsheet, Package, Scale } from "lucide-react";
import type { Order } from "@cartner/contract";
import { Badge, Button, ButtonLink, Container, EmptyState } from "../../components/ui/index.ts";
import { QueryList } from "../../components/QueryList.tsx";
import { ShowMore } from "../../components/ShowMore.tsx";
import { useAuth } from "../../lib/auth-store.ts";
import { formatDate, formatMoney } from "../../lib/format.ts";
import { CartSkeleton, PageLinks } from "../carts/index.ts";
import { isSettled } from "@cartner/contract";
import { NO_ORDERS_MESSAGE, myShare, shareStatusLabel, shareTone } from "./order-model.ts";
import { useOrderPages } from "../../api/orders.ts";
import { useCsvDownload } from "../../api/payments.ts";

/**
 * /orders ("My Orders" on the profile): orders you placed or have a share in, newest first, a
 * page at a time.
 */
export function OrdersPage() {
  const query = useOrderPages();
  const csv = useCsvDownload();

  return (
    <Container className="flex flex-col gap-5 py-6 sm:py-8">
      <title>My Orders — Cartner</title>
      <header className="flex flex-col gap-2">
        <PageLinks
          links={[
            { to: "/profile", label: "Profile" },
            { to: "/cart-history", label: "Cart History" },
          ]}
        />
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">My Orders</h1>
          <div className="flex flex-wrap gap-2">
            {query.data && query.data.length > 0 && (
              <Button
                variant="secondary"
                size="sm"
                loading={csv.isPending}
                onClick={() => csv.mutate(undefined)}
              >
                {!csv.isPending && <FileSpreadsheet aria-hidden="true" className="size-4" />}
                {csv.isPending ? "Preparing the CSV…" : "Download CSV"}
              </Button>
            )}
            <ButtonLink to="/balances" variant="secondary" size="sm">
              <Scale aria-hidden="true" className="size-4" />
              Balances
            </ButtonLink>
          </div>
        </div>
      </header>
      <QueryList
        query={query}
        loading={<CartSkeleton label="Loading your orders…" />}
        errorTitle="We couldn't load your orders."
        empty={
          <EmptyState
            size="lg"
            icon={<Package aria-hidden="true" className="size-7" />}
            title={NO_ORDERS_MESSAGE}
          >
            <p>When your group checks out a cart, the order and everyone's share show up here.</p>
            <ButtonLink to="/cart" variant="secondary" size="sm">
              Back to My Cart
            </ButtonLink>
          </EmptyState>
        }
      >
        {(orders) => (
          <>
            <ul className="flex flex-col gap-3">
              {orders.map((order) => (
                <li key={order._id}>
                  <OrderRow order={order} />
                </li>
              ))}
            </ul>
            <ShowMore query={query} what="orders" />
          </>
        )}
      </QueryList>
    </Container>
  );
}

function OrderRow({ order }: { order: Order }) {
  const { user } = useAuth();
  const mine = myShare(order, user?._id);
  const isPayee = order.payee._id === user?._id;
  const open = order.split.filter((s) => !isSettled(s)).length;
  return (
    <Link
      to={`/orders/${order._id}`}
      className="flex flex-col gap-2 rounded-card bg-surface p-4 shadow-soft ring-1 ring-slate-900/5 transition hover:ring-primary-300 sm:flex-row sm:items-center sm:justify-between sm:p-5"
    >
      <div className="flex min-w-0 flex-col gap-1">
        <p className="font-display text-lg font-bold text-ink">{order.number}</p>
        <p className="text-sm break-words text-slate-600">
          {order.sessionName} · {formatDate(order.placedAt)} · total {formatMoney(order.total)}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2 sm:justify-end">
        {isPayee ? (
          <Badge tone={open === 0 ? "success" : "primary"}>
            {open === 0 ? "Everyone settled" : `You are owed · ${open} open`}
          </Badge>
        ) : mine ? (
          <>
            <span className="text-sm font-semibold text-ink tabular-nums">
              Your share {formatMoney(mine.total)}
            </span>
            <Badge tone={shareTone(mine)}>{shareStatusLabel(mine)}</Badge>
          </>
        ) : null}
      </div>
    </Link>
  );
}
