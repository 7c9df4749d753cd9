import { QueryClient, onlineManager } from "@tanstack/react-query";
import { ApiError } from "../lib/api.ts";

/** TanStack Query owns server state. Client errors (4xx) are not retried; they will not get better. */
export function createQueryClient(): QueryClient {
  const client = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: (failureCount, error) => {
          if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
          return failureCount < 2;
        },
      },
      mutations: { retry: false },
    },
  });
  // TanStack Query hears the browser's online and offline events, but assumes online at start: a
  // page opened without a connection must queue its writes from the first one.
  if (typeof navigator !== "undefined") onlineManager.setOnline(navigator.onLine);
  return client;
}
