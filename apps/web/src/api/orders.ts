import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQueries,
  useQuery,
  usePrefetchQuery,
  useQueryClient,
} from "@tanstack/react-query";
import {
  PAGE_LIMIT_MAX,
  type AdjustmentBody,
  type RequestOf,
  type Order,
  type SetPayersBody,
  type SettlementKind,
} from "@cartner/contract";
import { call } from "../lib/call.ts";
import { toast } from "../lib/toast.ts";
import { errorMessage, isNotFound } from "../lib/api.ts";
import { saveFile } from "../lib/download.ts";
import { cartKeys } from "./carts.ts";
import { sessionKeys } from "./sessions-calls.ts";

// Checkout, orders, settling up, receipts and balances.

/** GET /orders' query as the URL carries it. */
type OrdersQueryInput = NonNullable<RequestOf<"GET /api/orders">["query"]>;

/** How checkout treats lines over the stock: refused (the default), or what is left taken. */
export type OverStock = "take_what_is_left" | "refuse";

/**
 * What the creator chose at checkout: `payers`, who pays the shop (absent: the creator, the payee,
 * pays it all); `overStock`, what becomes of lines that want more than is left; `pending`, of lines
 * waiting for approval ("drop": checked out without them; absent: checkout waits, 409).
 */
export interface CheckoutChoice {
  payers?: SetPayersBody["payers"] | undefined;
  overStock?: OverStock | undefined;
  pending?: "wait" | "drop" | undefined;
}

/** Checks out with the creator's choices (none: no body). */
export function checkout(sessionId: string, choice: CheckoutChoice = {}) {
  const body = Object.fromEntries(Object.entries(choice).filter(([, value]) => value));
  return call("POST /api/sessions/:id/checkout", {
    params: { id: sessionId },
    body: Object.keys(body).length > 0 ? body : undefined,
  });
}

/** A page of My Orders (newest first), or the orders a filter picks. */
export function fetchOrders(query: OrdersQueryInput = {}, signal?: AbortSignal) {
  return call("GET /api/orders", { query }, { signal });
}

export function fetchOrder(id: string, signal?: AbortSignal) {
  return call("GET /api/orders/:id", { params: { id } }, { signal });
}

/** The order's book, oldest first (the page's history; a few dozen entries). */
export function fetchOrderEntries(id: string, signal?: AbortSignal) {
  return call("GET /api/orders/:id/entries", { params: { id }, query: { limit: 200 } }, { signal });
}

export function markOrderPaid(id: string) {
  return call("POST /api/orders/:id/paid", { params: { id } });
}

/** Settles a member's share (payee): a confirmed transfer, or cash, or written off. */
export function confirmShare(id: string, userId: string, how: SettlementKind = "transfer") {
  return call("POST /api/orders/:id/confirm/:userId", { params: { id, userId }, body: { how } });
}

export function resendOrderMail(id: string) {
  return call("POST /api/orders/:id/mail", { params: { id } });
}

/** Shows the order's private items to every member (payee); the answer is the order. */
export function revealOrder(id: string) {
  return call("POST /api/orders/:id/reveal", { params: { id } });
}

/** Records what the shop delivered and charged (payee); the answer is the re-split order. */
export function adjustOrder(id: string, body: AdjustmentBody) {
  return call("POST /api/orders/:id/adjustments", { params: { id }, body });
}

export function disputeAdjustment(id: string, adjId: string, comment: string) {
  return call("POST /api/orders/:id/adjustments/:adjId/dispute", {
    params: { id, adjId },
    body: { comment },
  });
}

export function fetchBalances(signal?: AbortSignal) {
  return call("GET /api/balances", {}, { signal });
}

/** Who paid the shop (payee): amounts adding up to the total. */
export function setPayers(id: string, body: SetPayersBody) {
  return call("PUT /api/orders/:id/payers", { params: { id }, body });
}

/** The receipt as a file (the route needs the bearer token, so a plain link cannot fetch it). */
export function fetchReceipt(id: string) {
  return call(
    "GET /api/orders/:id/receipt.pdf",
    { params: { id } },
    { responseType: "blob" },
  ) as unknown as Promise<Blob>;
}

/** Everything order-related lives under ["orders"], so one invalidation covers it. */
export const orderKeys = {
  all: ["orders"] as const,
  /** Every list of orders (the pages, a session's order, those to pay, the count) is under it. */
  list: () => ["orders", "list"] as const,
  pages: () => ["orders", "list", "pages"] as const,
  ofSessions: (sessionIds: readonly string[]) =>
    ["orders", "list", "sessions", ...sessionIds] as const,
  toPay: () => ["orders", "list", "to-pay"] as const,
  detail: (id: string) => ["orders", "detail", id] as const,
  /** Under the order's key: whatever refreshes the order refreshes its book. */
  entries: (id: string) => ["orders", "detail", id, "entries"] as const,
  balances: () => ["orders", "balances"] as const,
  settlePlan: () => ["orders", "balances", "plan"] as const,
};

export function receiptFileName(order: Pick<Order, "number">): string {
  return `cartner-${order.number}.pdf`;
}

// What the order hooks read; also for prefetching and for reading the cache outside React.

/** My Orders, a page at a time. */
export function orderPagesQuery() {
  return infiniteQueryOptions({
    queryKey: orderKeys.pages(),
    queryFn: ({ signal, pageParam }) => fetchOrders(pageParam ? { cursor: pageParam } : {}, signal),
    initialPageParam: "",
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** The order a session's checkout became (a list of at most one). */
export function sessionOrderQuery(sessionId: string) {
  return queryOptions({
    queryKey: orderKeys.ofSessions([sessionId]),
    queryFn: ({ signal }) => fetchOrders({ sessionId: [sessionId] }, signal),
    enabled: sessionId !== "",
  });
}

/** The orders these sessions became (at most a page's worth of sessions: PAGE_LIMIT_MAX). */
export function sessionOrdersQuery(sessionIds: readonly string[]) {
  return queryOptions({
    queryKey: orderKeys.ofSessions(sessionIds),
    queryFn: ({ signal }) =>
      fetchOrders({ sessionId: [...sessionIds], limit: PAGE_LIMIT_MAX }, signal),
    enabled: sessionIds.length > 0,
  });
}

/** The orders where my share is still to pay (the badge); the most a page holds. */
export function ordersToPayQuery() {
  return queryOptions({
    queryKey: orderKeys.toPay(),
    queryFn: ({ signal }) => fetchOrders({ toPay: "true", limit: PAGE_LIMIT_MAX }, signal),
  });
}

export function orderQuery(id: string) {
  return queryOptions({
    queryKey: orderKeys.detail(id),
    queryFn: ({ signal }) => fetchOrder(id, signal),
    retry: (count, error) => count < 2 && !isNotFound(error),
  });
}

export function orderEntriesQuery(id: string) {
  return queryOptions({
    queryKey: orderKeys.entries(id),
    queryFn: ({ signal }) => fetchOrderEntries(id, signal).then((body) => body.entries),
  });
}

export function balancesQuery() {
  return queryOptions({
    queryKey: orderKeys.balances(),
    queryFn: ({ signal }) => fetchBalances(signal),
  });
}

/** The payee says who paid the shop; the answer is the new order. */
export function useSetPayers(orderId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SetPayersBody) => setPayers(orderId, body),
    onSuccess: (body) => {
      client.setQueryData(orderKeys.detail(orderId), body);
      void client.invalidateQueries({ queryKey: orderKeys.entries(orderId) });
      void client.invalidateQueries({ queryKey: orderKeys.list() });
      void client.invalidateQueries({ queryKey: orderKeys.balances() });
      toast.success("Payers saved.");
    },
  });
}

/** My Orders as one list, with fetchNextPage/hasNextPage for the rest. */
export function useOrderPages() {
  return useInfiniteQuery({
    ...orderPagesQuery(),
    select: (data) => data.pages.flatMap((page) => page.orders),
  });
}

/** How many orders the pages loaded so far hold, and whether the server has more. */
export function useOrderCount() {
  return useInfiniteQuery({
    ...orderPagesQuery(),
    select: (data) => ({
      count: data.pages.reduce((n, page) => n + page.orders.length, 0),
      more: Boolean(data.pages.at(-1)?.nextCursor),
    }),
  });
}

/** The orders where my share is still to pay: how many, or "more" beyond a page. */
export function useOrdersToPay() {
  return useQuery({
    ...ordersToPayQuery(),
    select: (body) => ({ orders: body.orders, more: body.nextCursor !== null }),
  });
}

/** The order page's order. Its history is asked for at the same time (see below). */
export function useOrder(id: string) {
  // Both requests start as the page renders, not once it is on screen (React holds the page's
  // first commit back after its chunk loads), and the history's does not wait for the order: it
  // was the last of three requests in a row before the page was whole.
  usePrefetchQuery(orderQuery(id));
  usePrefetchQuery(orderEntriesQuery(id));
  return useQuery({ ...orderQuery(id), select: (body) => body.order });
}

/** The order's book, for its history (refreshed with the order). */
export function useOrderEntries(id: string) {
  return useQuery(orderEntriesQuery(id));
}

export function useBalances() {
  return useQuery({ ...balancesQuery(), select: (body) => body.balances });
}

/** The order a session's checkout became, once there is one. */
export function useSessionOrder(sessionId: string) {
  return useSessionOrderQuery(sessionId).data;
}

/** The orders these sessions became, by session (what each page of Cart History reads). */
export function useSessionOrders(sessionIds: readonly string[]): Map<string, Order> {
  const chunks: string[][] = [];
  for (let i = 0; i < sessionIds.length; i += PAGE_LIMIT_MAX) {
    chunks.push(sessionIds.slice(i, i + PAGE_LIMIT_MAX));
  }
  const answers = useQueries({ queries: chunks.map((ids) => sessionOrdersQuery(ids)) });
  return new Map(
    answers.flatMap((a) => a.data?.orders ?? []).map((order) => [order.sessionId, order]),
  );
}

/** The same, with the query's state (pending until the server has answered). */
export function useSessionOrderQuery(sessionId: string) {
  return useQuery({ ...sessionOrderQuery(sessionId), select: (body) => body.orders[0] });
}

/** Settlement changes: the answer is the new order; balances and lists follow. */
export function useOrderAction(orderId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (
      action:
        | { kind: "paid" }
        | { kind: "confirm"; userId: string; how?: SettlementKind }
        | { kind: "mail" }
        | { kind: "reveal" },
    ) =>
      action.kind === "paid"
        ? markOrderPaid(orderId)
        : action.kind === "confirm"
          ? confirmShare(orderId, action.userId, action.how)
          : action.kind === "reveal"
            ? revealOrder(orderId)
            : resendOrderMail(orderId),
    onSuccess: (body, action) => {
      client.setQueryData(orderKeys.detail(orderId), body);
      void client.invalidateQueries({ queryKey: orderKeys.entries(orderId) });
      void client.invalidateQueries({ queryKey: orderKeys.list() });
      void client.invalidateQueries({ queryKey: orderKeys.balances() });
      if (action.kind === "paid") toast.success("Marked as paid. The payee will confirm it.");
      if (action.kind === "confirm") toast.success(SETTLED_TOAST[action.how ?? "transfer"]);
      if (action.kind === "mail") toast.success("Sending the email again.");
      if (action.kind === "reveal") toast.success("Everyone in the session sees the items now.");
    },
    onError: (error) => {
      toast.error(errorMessage(error, "That did not work. Try again."));
    },
  });
}

/**
 * Adjustments and disputes: the answer is the new order; lists and balances follow. Errors stay
 * with the form that sent them (a 400 names the field).
 */
export function useAdjustmentAction(orderId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (
      action:
        | { kind: "adjust"; body: AdjustmentBody }
        | { kind: "dispute"; adjId: string; comment: string },
    ) =>
      action.kind === "adjust"
        ? adjustOrder(orderId, action.body)
        : disputeAdjustment(orderId, action.adjId, action.comment),
    onSuccess: (body, action) => {
      client.setQueryData(orderKeys.detail(orderId), body);
      void client.invalidateQueries({ queryKey: orderKeys.entries(orderId) });
      void client.invalidateQueries({ queryKey: orderKeys.list() });
      void client.invalidateQueries({ queryKey: orderKeys.balances() });
      toast.success(
        action.kind === "adjust"
          ? "Change recorded: the shares are re-split."
          : "Dispute sent to the payee.",
      );
    },
  });
}

/** Said for a share and for what a payer without a share owed alike. */
const SETTLED_TOAST: Record<SettlementKind, string> = {
  transfer: "Payment confirmed.",
  cash: "Recorded as paid in cash.",
  written_off: "Written off.",
};

export function useCheckout(sessionId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (choice: CheckoutChoice) => checkout(sessionId, choice),
    onSuccess: (body) => {
      client.setQueryData(orderKeys.detail(body.order._id), body);
      void client.invalidateQueries({ queryKey: orderKeys.all });
      void client.invalidateQueries({ queryKey: cartKeys.all });
      void client.invalidateQueries({ queryKey: sessionKeys.all });
    },
  });
}

/** Downloads the receipt PDF; progress is the caller's pending state. */
export function useReceiptDownload() {
  return useMutation({
    mutationFn: async (order: Pick<Order, "_id" | "number">) => {
      saveFile(await fetchReceipt(order._id), receiptFileName(order));
    },
    onError: (error) => {
      toast.error(errorMessage(error, "We couldn't download the receipt. Try again."));
    },
  });
}
