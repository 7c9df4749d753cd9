import { useParams } from "../../lib/router.tsx";
import { Download, FileSpreadsheet, PackageCheck, ShoppingBag, Users } from "lucide-react";
import { creditOwedBy, isSettled, type Order } from "@cartner/contract";
import { LostCart } from "../../components/illustrations/LostCart.tsx";
import {
  Badge,
  Button,
  ButtonLink,
  Card,
  CardBody,
  Container,
  LoadError,
  Panel,
} from "../../components/ui/index.ts";
import { errorMessage, isNotFound } from "../../lib/api.ts";
import { useAuth } from "../../lib/auth-store.ts";
import { cn } from "../../lib/cn.ts";
import { formatDateTime, formatMoney } from "../../lib/format.ts";
import {
  CartSkeleton,
  EstimatedBadge,
  LineRemarks,
  PageLinks,
  PrivateBadge,
  StackedTable,
  TotalsList,
  stackedCell,
} from "../carts/index.ts";
import {
  ORDER_NOT_FOUND,
  myShare,
  orderStandingSentence,
  owedByPayersWithoutShare,
  shareChange,
} from "./order-model.ts";
import { AdjustmentsPanel } from "./AdjustmentsPanel.tsx";
import { OrderHistory } from "./OrderHistory.tsx";
import { useOrder, useReceiptDownload } from "../../api/orders.ts";
import { useCsvDownload } from "../../api/payments.ts";
import { PayPanel } from "./PayPanel.tsx";
import { PayerOwesCard } from "./PayerOwesCard.tsx";
import { PayersPanel } from "./PayersPanel.tsx";
import { PrivateItems } from "./PrivateItems.tsx";
import { ShareCard } from "./ShareCard.tsx";

// The page's first Intl formatters load the locale's data (tens of milliseconds on a phone): made
// in a task of their own as soon as this chunk has run, while the order is on its way, rather than
// inside the render of the order.
if (typeof window !== "undefined") {
  setTimeout(() => {
    formatMoney(0);
    formatDateTime(0);
  }, 0);
}

/**
 * The lower panels (the items, the history) are below the first screen on a phone: while off
 * screen the browser skips their style, layout and paint, which made the order's first drawing
 * a long task. The intrinsic size is about a panel's, so the scrollbar stays steady.
 */
const BELOW_THE_FOLD = "[contain-intrinsic-size:auto_24rem] [content-visibility:auto]";

/** /orders/:id: a checked-out cart, its shares and who has paid; live (order.updated). */
export function OrderPage() {
  const { id = "" } = useParams();
  const query = useOrder(id);
  let body;
  if (query.data) body = <OrderView order={query.data} />;
  else if (query.isError && isNotFound(query.error)) body = <OrderNotFound />;
  else if (query.isError) {
    body = (
      <LoadError
        title="We couldn't load this order."
        message={errorMessage(query.error, "Check your connection and try again.")}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else body = <CartSkeleton label="Loading the order…" sections={1} />;
  const loading = !query.data && !query.isError;
  return (
    // While the order loads the page keeps a screen's height, as the page's loading spinner does:
    // a short skeleton brought the footer up into view and the order pushed it down again, which
    // moved the screen twice (a layout shift of 0.5 on a phone).
    <Container className={cn("flex flex-col gap-5 py-6 sm:py-8", loading && "min-h-dvh")}>
      <title>{query.data ? `${query.data.number} — Cartner` : "Order — Cartner"}</title>
      <PageLinks
        links={[
          { to: "/orders", label: "My Orders" },
          { to: "/balances", label: "Balances" },
        ]}
      />
      {body}
    </Container>
  );
}

function OrderView({ order }: { order: Order }) {
  const { user } = useAuth();
  const download = useReceiptDownload();
  const csv = useCsvDownload();
  const mine = myShare(order, user?._id);
  const isPayee = order.payee._id === user?._id;
  const owedWithoutShare = owedByPayersWithoutShare(order, user?._id);

  return (
    <>
      <header className="flex flex-col gap-2">
        <Badge tone="success" className="self-start">
          <PackageCheck aria-hidden="true" className="size-3.5" />
          Order placed
        </Badge>
        <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{order.number}</h1>
        <p className="text-slate-700">
          <span className="font-semibold break-words">{order.sessionName}</span> · placed{" "}
          {formatDateTime(order.placedAt)} by {order.placedBy.name}
        </p>
        <p className="text-sm text-slate-600" aria-live="polite">
          {order.payers.length > 1
            ? `${order.payers.map((p) => p.user.name).join(" and ")} paid the shop.`
            : `${order.payers[0]?.user.name ?? order.payee.name}${order.payers[0]?.user._id === user?._id ? " (you)" : ""} paid the shop.`}{" "}
          {orderStandingSentence(order, user?._id)}
        </p>
        {mine &&
          (!isPayee || mine.credit > 0) &&
          shareChange(mine, creditOwedBy(order, mine.userId), true) && (
            <p className="font-semibold text-ink" aria-live="polite">
              {shareChange(mine, creditOwedBy(order, mine.userId), true)}
            </p>
          )}
      </header>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="flex min-w-0 flex-col gap-6">
          <Panel title="Shares" icon={Users}>
            <ul aria-label="Shares" className="grid gap-3 sm:grid-cols-2">
              {order.split.map((share) => (
                <ShareCard
                  key={share.userId}
                  order={order}
                  share={share}
                  isMe={share.userId === user?._id}
                  isPayee={isPayee}
                  viewerId={user?._id}
                />
              ))}
            </ul>
            {owedWithoutShare.length > 0 && (
              <ul
                aria-label="Payers without a share who owe you"
                className="grid gap-3 sm:grid-cols-2"
              >
                {owedWithoutShare.map((owing) => (
                  <PayerOwesCard
                    key={owing.userId}
                    order={order}
                    owing={owing}
                    viewerId={user?._id}
                  />
                ))}
              </ul>
            )}
          </Panel>

          <PayersPanel order={order} isPayee={isPayee} />

          {mine && !isPayee && !isSettled(mine) && <PayPanel order={order} />}

          <Panel title="Items" icon={ShoppingBag} className={BELOW_THE_FOLD}>
            <OrderLines order={order} />
          </Panel>

          <AdjustmentsPanel order={order} isPayee={isPayee} hasShare={mine !== undefined} />

          <OrderHistory order={order} className={BELOW_THE_FOLD} />
        </div>

        <Panel title="Total" className="self-start">
          <TotalsList totals={order} />
          <PrivateItems order={order} isPayee={isPayee} />
          {order.originalTotal !== order.total && (
            <p className="text-sm text-slate-600">
              Adjusted after checkout: the total was {formatMoney(order.originalTotal)}.
            </p>
          )}
          <Button
            variant="secondary"
            fullWidth
            loading={download.isPending}
            onClick={() => download.mutate(order)}
          >
            {!download.isPending && <Download aria-hidden="true" className="size-4" />}
            {download.isPending ? "Preparing the receipt…" : "Download Receipt"}
          </Button>
          <Button
            variant="secondary"
            fullWidth
            loading={csv.isPending}
            onClick={() => csv.mutate(order)}
          >
            {!csv.isPending && <FileSpreadsheet aria-hidden="true" className="size-4" />}
            {csv.isPending ? "Preparing the CSV…" : "Download CSV"}
          </Button>
        </Panel>
      </div>
    </>
  );
}

const LINE_COLUMNS = [
  { label: "Product", className: "pr-3" },
  { label: "Quantity", className: "px-3 text-center" },
  { label: "Total", className: "pl-3 text-right" },
];

function OrderLines({ order }: { order: Order }) {
  return (
    <StackedTable caption={`Items in ${order.number}`} columns={LINE_COLUMNS}>
      {order.lines.map((line, index) => (
        <tr
          key={`${line.productId}-${line.addedBy._id}-${index}`}
          role="row"
          className="max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-1 max-sm:py-3"
        >
          <td role="cell" className={cn(stackedCell, "pr-3 max-sm:col-span-2")}>
            <div className="flex min-w-0 flex-col">
              <span className="font-semibold break-words text-ink">{line.name}</span>
              {line.estimated && <EstimatedBadge />}
              {line.hiddenFrom.length > 0 && <PrivateBadge />}
              {line.adjusted && (
                <span className="text-sm text-accent-800">
                  {line.adjusted.missing
                    ? "Not delivered"
                    : `Delivered: ${line.adjusted.name !== line.name ? `${line.adjusted.name}, ` : ""}${line.adjusted.quantity} × ${formatMoney(line.adjusted.unitPrice)}${line.adjusted.refunded > 0 ? `, ${formatMoney(line.adjusted.refunded)} refunded` : ""}`}
                </span>
              )}
              <span className="text-xs text-slate-500">
                {formatMoney(line.unitPrice)} each · added by {line.addedBy.name}
                {line.sharedWith.length > 0 &&
                  ` · shared by ${line.sharedWith.map((p) => p.name).join(", ")}`}
              </span>
              <LineRemarks line={line} />
            </div>
          </td>
          <td
            role="cell"
            className={cn(
              stackedCell,
              "px-3 text-center font-semibold text-ink tabular-nums max-sm:text-left",
            )}
          >
            <span className="font-normal text-slate-500 sm:hidden">Qty </span>
            {line.quantity}
          </td>
          <td
            role="cell"
            className={cn(stackedCell, "pl-3 text-right font-medium text-ink tabular-nums")}
          >
            {line.adjusted && line.adjusted.lineTotal !== line.lineTotal ? (
              <>
                <s className="text-slate-500">
                  <span className="sr-only">was </span>
                  {formatMoney(line.lineTotal)}
                </s>{" "}
                <span className="sr-only">now </span>
                {formatMoney(line.adjusted.lineTotal)}
              </>
            ) : (
              formatMoney(line.lineTotal)
            )}
          </td>
        </tr>
      ))}
    </StackedTable>
  );
}

function OrderNotFound() {
  return (
    <Card className="mx-auto max-w-xl text-center">
      <CardBody className="flex flex-col items-center gap-4">
        <LostCart className="max-w-56" />
        <h1 className="text-2xl font-bold sm:text-3xl">{ORDER_NOT_FOUND}</h1>
        <p className="max-w-md text-slate-600">
          This order does not exist, or you have no share in it.
        </p>
        <ButtonLink to="/orders">My Orders</ButtonLink>
      </CardBody>
    </Card>
  );
}
