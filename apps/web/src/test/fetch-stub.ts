import { vi } from "vitest";

/** What a stubbed route sees of a request. */
export interface StubRequest {
  method: string;
  path: string;
  /** The query string's parameters. */
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

export type StubHandler = (request: StubRequest) => Response | Promise<Response>;

export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });
}

/**
 * Replaces the global fetch (the network boundary, nothing of ours) with routes keyed
 * "METHOD /path". Unknown routes answer 404 in the API's error shape. Returns the mock for asserts.
 */
export function stubFetch(routes: Record<string, StubHandler>) {
  const mock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(
      typeof input === "string" ? input : input instanceof URL ? input.href : input.url,
      "http://localhost",
    );
    const method = (init.method ?? "GET").toUpperCase();
    const headers = new Headers(init.headers);
    const raw = typeof init.body === "string" ? init.body : undefined;
    const body: unknown = raw === undefined ? undefined : JSON.parse(raw);
    const handler = routes[`${method} ${url.pathname}`];
    if (!handler) return json(404, { message: "Not found", code: "NOT_FOUND" });
    return handler({ method, path: url.pathname, query: url.searchParams, headers, body });
  });
  vi.stubGlobal("fetch", mock);
  return mock;
}

/** The calls made to one route, e.g. calls(mock, "POST /api/auth/refresh-token"). */
export function callsTo(mock: ReturnType<typeof stubFetch>, route: string): RequestInit[] {
  const [method, path] = route.split(" ");
  return mock.mock.calls
    .filter(([input, init]) => {
      const url = new URL(String(input), "http://localhost");
      return (init?.method ?? "GET").toUpperCase() === method && url.pathname === path;
    })
    .map(([, init]) => init ?? {});
}

export function bearerOf(init: RequestInit): string | null {
  return new Headers(init.headers).get("Authorization");
}
