import { Link, useParams } from "../../lib/router.tsx";
import { ArrowLeft, ReceiptText, ShoppingBag, Users } from "lucide-react";
import { DEFAULT_SPLIT_POLICY, type CartLine, type SessionSummary } from "@cartner/contract";
import { useSessionDetail } from "../../api/sessions.ts";
import { policySentence } from "../../shared/split-text.ts";
import { LostCart } from "../../components/illustrations/LostCart.tsx";
import {
  Badge,
  ButtonLink,
  Card,
  CardBody,
  Container,
  LoadError,
  Panel,
} from "../../components/ui/index.ts";
import { errorMessage } from "../../lib/api.ts";
import { useAuth } from "../../lib/auth-store.ts";
import { cn } from "../../lib/cn.ts";
import { formatMoney } from "../../lib/format.ts";
import { isNotFound } from "../../lib/api.ts";
import { UNTITLED_SESSION, cartLineOf, itemsLabel } from "./cart-model.ts";
import { LineImage, StackedTable, stackedCell, type StackedColumn } from "./cart-parts.tsx";
import { useSessionCart, useSessionSummary } from "../../api/carts.ts";
import { useRefetchCartsOnSync } from "../../api/session-sync.ts";
import { CheckoutPanel } from "./CheckoutPanel.tsx";
import { EstimatedBadge, LineRemarks } from "./line-remarks.tsx";
import { StockFlag } from "./LineFlags.tsx";
import { TotalsList } from "./OrderSummaryCard.tsx";

export const SUMMARY_NOT_FOUND = "Summary not found";

type Share = SessionSummary["split"][number];

/**
 * Everyone's share as the server computed it (never recomputed here), plus members who added
 * nothing yet, at zero.
 */
export function sharesOf(summary: SessionSummary): Array<Share & { added: boolean }> {
  const shares = summary.split.map((share) => ({ ...share, added: true }));
  const known = new Set(shares.map((share) => share.userId));
  for (const person of summary.participants) {
    if (known.has(person._id)) continue;
    shares.push({
      userId: person._id,
      name: person.name,
      subtotal: 0,
      fees: 0,
      tax: 0,
      total: 0,
      budget: null,
      overBudget: false,
      added: false,
    });
  }
  return shares;
}

/** /session-summary/:sessionId: the items, the fair split per member and the total. */
export function SessionSummaryPage() {
  const { sessionId = "" } = useParams();
  const query = useSessionSummary(sessionId);
  useRefetchCartsOnSync();

  if (query.data) return <Summary summary={query.data} sessionId={sessionId} />;
  if (query.isError && isNotFound(query.error)) return <SummaryNotFound />;
  return (
    <Container className="flex flex-col gap-6 py-6 sm:py-8">
      <title>Session Summary — Cartner</title>
      <BackToCart sessionId={sessionId} />
      {query.isError ? (
        <LoadError
          title="We couldn't load this summary."
          message={errorMessage(query.error, "Check your connection and try again.")}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : (
        <SummarySkeleton />
      )}
    </Container>
  );
}

function BackToCart({ sessionId }: { sessionId: string }) {
  return (
    <Link
      to={`/cart/${encodeURIComponent(sessionId)}`}
      className="inline-flex items-center gap-1.5 self-start rounded-md text-sm font-semibold text-primary-700 hover:underline"
    >
      <ArrowLeft aria-hidden="true" className="size-4" />
      Back to cart
    </Link>
  );
}

/** What the page says while the session's policy is loading: the default policy. */
const DEFAULT_POLICY_TEXT = policySentence(DEFAULT_SPLIT_POLICY);

function Summary({ summary, sessionId }: { summary: SessionSummary; sessionId: string }) {
  const { user } = useAuth();
  // The policy is the session's; the summary's split already follows it.
  // The same cache entry as the lobby's (the Session itself).
  const session = useSessionDetail(sessionId).data;
  const policy = session?.splitPolicy;
  const name = summary.sessionName.trim() || UNTITLED_SESSION;
  const shares = sharesOf(summary);
  // The cart's lines say which items checkout leaves out or is short of (the same query as the
  // checkout panel's): those left out count in no total, so not in the items either.
  const lines = useSessionCart(sessionId).data?.cart.products;
  const itemCount = summary.cartItems
    .filter((item) => cartLineOf(lines, item)?.available !== false)
    .reduce((sum, item) => sum + item.quantity, 0);

  return (
    <Container className="flex flex-col gap-6 py-6 sm:py-8">
      <title>{`${name} — Summary — Cartner`}</title>
      <BackToCart sessionId={sessionId} />
      <header className="flex flex-col gap-2">
        <Badge tone="accent" className="self-start">
          <ReceiptText aria-hidden="true" className="size-3.5" />
          Session Summary
        </Badge>
        <h1 className="text-3xl font-extrabold tracking-tight break-words sm:text-4xl">{name}</h1>
        <p className="text-slate-600">
          {summary.participants.length}{" "}
          {summary.participants.length === 1 ? "participant" : "participants"} ·{" "}
          {itemsLabel(itemCount)}
        </p>
      </header>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="flex min-w-0 flex-col gap-6">
          <Panel title="Items" icon={ShoppingBag}>
            {summary.cartItems.length === 0 ? (
              <p className="rounded-2xl bg-slate-50 px-4 py-6 text-center text-slate-600">
                No items in this cart yet.
              </p>
            ) : (
              <ItemsTable summary={summary} lines={lines} />
            )}
          </Panel>

          <Panel
            title="Cost split"
            icon={Users}
            description={policy ? policySentence(policy) : DEFAULT_POLICY_TEXT}
          >
            <ul aria-label="Cost per participant" className="grid gap-3 sm:grid-cols-2">
              {shares.map((share) => (
                <li
                  key={share.userId}
                  data-testid="split-share"
                  className="flex flex-col gap-3 rounded-2xl bg-slate-50 p-4 ring-1 ring-slate-200 ring-inset"
                >
                  <div className="flex items-baseline justify-between gap-3">
                    <p className="min-w-0 font-semibold break-words text-ink">
                      {share.name}
                      {share.userId === user?._id && (
                        <span className="font-normal text-slate-500"> (you)</span>
                      )}
                    </p>
                    <p className="font-display text-lg font-bold text-ink tabular-nums">
                      <span className="sr-only">Total </span>
                      {formatMoney(share.total)}
                    </p>
                  </div>
                  {share.added ? (
                    <dl className="grid grid-cols-3 gap-2 text-xs">
                      <ShareFigure label="Subtotal" value={share.subtotal} />
                      <ShareFigure label="Fees" value={share.fees} />
                      <ShareFigure label="Tax" value={share.tax} />
                    </dl>
                  ) : (
                    <p className="text-xs text-slate-500">Nothing added yet.</p>
                  )}
                </li>
              ))}
            </ul>
          </Panel>
        </div>

        <Panel title="Total" className="self-start">
          <TotalsList totals={summary} />
          {summary.privateCount > 0 && (
            <p className="text-xs text-slate-600">
              Includes{" "}
              {summary.privateCount === 1
                ? "1 private item"
                : `${summary.privateCount} private items`}
            </p>
          )}
          <CheckoutPanel
            session={session}
            sessionId={sessionId}
            empty={summary.cartItems.length === 0}
            total={summary.total}
            shares={summary.split}
            items={summary.cartItems}
          />
        </Panel>
      </div>
    </Container>
  );
}

function ShareFigure({ label, value }: { label: string; value: number }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-slate-500">{label}</dt>
      <dd className="font-medium text-slate-800 tabular-nums">{formatMoney(value)}</dd>
    </div>
  );
}

const ITEM_COLUMNS: StackedColumn[] = [
  { label: "Product", className: "pr-3" },
  { label: "Quantity", className: "px-3 text-center" },
  { label: "Added by", className: "pl-3 text-right" },
];

function ItemsTable({
  summary,
  lines,
}: {
  summary: SessionSummary;
  lines: readonly CartLine[] | undefined;
}) {
  return (
    <StackedTable caption="Items in the cart" columns={ITEM_COLUMNS}>
      {summary.cartItems.map((item, index) => {
        const line = cartLineOf(lines, item);
        return (
          <tr
            key={`${item.product._id}-${item.addedById}-${index}`}
            role="row"
            className="max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-1 max-sm:py-3"
          >
            <td role="cell" className={cn(stackedCell, "pr-3 max-sm:col-span-2")}>
              <div className="flex min-w-0 items-center gap-3">
                <LineImage src={item.product.imageUrl} className="size-12" />
                <div className="flex min-w-0 flex-col">
                  <span className="font-semibold break-words text-ink">{item.product.name}</span>
                  {line && <StockFlag line={line} />}
                  {item.estimated && <EstimatedBadge />}
                  <span className="text-xs text-slate-500">
                    {formatMoney(item.product.price)} each
                  </span>
                  <LineRemarks line={item} />
                </div>
              </div>
            </td>
            <td
              role="cell"
              className={cn(
                stackedCell,
                "px-3 text-center font-semibold text-ink tabular-nums max-sm:pl-[3.75rem] max-sm:text-left",
              )}
            >
              <span className="font-normal text-slate-500 sm:hidden">Qty </span>
              {item.quantity}
            </td>
            <td role="cell" className={cn(stackedCell, "pl-3 text-right text-slate-700")}>
              <span className="text-slate-500 sm:hidden">Added by </span>
              {item.addedBy || "someone"}
            </td>
          </tr>
        );
      })}
    </StackedTable>
  );
}

function SummarySkeleton() {
  return (
    <div className="flex flex-col gap-6">
      <p role="status" className="sr-only">
        Loading the summary…
      </p>
      <div aria-hidden="true" className="flex animate-pulse flex-col gap-3">
        <div className="h-6 w-36 rounded-full bg-slate-200" />
        <div className="h-10 w-2/3 max-w-md rounded bg-slate-200" />
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <div className="h-72 rounded-card bg-slate-200" />
          <div className="h-56 rounded-card bg-slate-200" />
        </div>
      </div>
    </div>
  );
}

function SummaryNotFound() {
  return (
    <Container className="py-10 sm:py-16">
      <title>{`${SUMMARY_NOT_FOUND} — Cartner`}</title>
      <Card className="mx-auto max-w-xl text-center">
        <CardBody className="flex flex-col items-center gap-4">
          <LostCart className="max-w-56" />
          <h1 className="text-2xl font-bold sm:text-3xl">{SUMMARY_NOT_FOUND}</h1>
          <p className="max-w-md text-slate-600">
            This session does not exist, or you are not a member of it, so there is no summary to
            show.
          </p>
          <div className="flex flex-col gap-2 sm:flex-row">
            <ButtonLink to="/cart">My Cart</ButtonLink>
            <ButtonLink to="/sessions" variant="secondary">
              Sessions
            </ButtonLink>
          </div>
        </CardBody>
      </Card>
    </Container>
  );
}
