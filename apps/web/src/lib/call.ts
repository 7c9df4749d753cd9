// Types only: the endpoint table's schemas (and zod) stay out of the bundle (docs/decisions/005).
import type { EndpointKey, RequestOf, ResponseOf } from "@cartner/contract";
import { apiRequest, type RequestOptions } from "./api.ts";

type CallOptions = Pick<
  RequestOptions,
  "signal" | "auth" | "headers" | "retryOnExpiredToken" | "responseType" | "idempotencyKey"
>;

/** `call(key)` for routes that take nothing; `call(key, { params, query, body })` otherwise. */
type CallArgs<K extends EndpointKey> =
  Record<never, never> extends RequestOf<K>
    ? [request?: RequestOf<K>, options?: CallOptions]
    : [request: RequestOf<K>, options?: CallOptions];

/** "/api/carts/:cartId" with { cartId: "a b" } -> "/api/carts/a%20b". */
export function fillPath(template: string, params: Record<string, unknown> = {}): string {
  return template.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${template}`);
    return encodeURIComponent(String(value));
  });
}

/** a=1&b=x&b=y from an object: arrays repeat their key, undefined and null are left out. */
export function queryString(query: object = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) search.append(key, String(item));
    }
  }
  return search.toString();
}

/**
 * Calls one route of the endpoint table, typed by it: the key names the method and path, the
 * request carries exactly the params, query and body the route takes, and the answer has the
 * route's success type.
 */
export function call<K extends EndpointKey>(key: K, ...args: CallArgs<K>): Promise<ResponseOf<K>> {
  const [request, options] = args as [
    { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown }?,
    CallOptions?,
  ];
  const space = key.indexOf(" ");
  const method = key.slice(0, space);
  const search = queryString(request?.query);
  const path = fillPath(key.slice(space + 1), request?.params) + (search ? `?${search}` : "");
  return apiRequest<ResponseOf<K>>(path, { ...options, method, body: request?.body });
}
