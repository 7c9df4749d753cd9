import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "../lib/api.ts";

/** TanStack Query owns server state. Client errors (4xx) are not retried; they will not get better. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
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
}
