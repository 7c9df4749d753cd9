/*
 * What a signed-in page opened directly asks the server for first, by its address, so the app's
 * start can ask at once (lib/api.ts, startEarlyGets). Each path must be exactly the one the page's
 * own first call makes, or it is simply not used: the order page's order and history
 * (api/orders.ts, fetchOrder and fetchOrderEntries) and the marketplace's first page of the whole
 * catalog (api/products.ts, productPagesQuery, with no filters in the address).
 */

/** An id that needs no encoding: anything else is left to the page's own call. */
const PLAIN_ID = /^[\w-]+$/;

export function earlyDataPaths(pathname: string, search: string): string[] {
  const order = /^\/orders\/([^/]+)$/.exec(pathname)?.[1];
  if (order && PLAIN_ID.test(order)) {
    return [`/api/orders/${order}`, `/api/orders/${order}/entries?limit=200`];
  }
  if (pathname === "/products" && search === "") return ["/api/products?limit=60&offset=0"];
  return [];
}

/** Whether a signed-in page opened directly shows dates in its first view (an order's history). */
export function showsDatesFirst(pathname: string): boolean {
  return pathname.startsWith("/orders/");
}
