import { useEffect, useState, type ReactNode } from "react";
import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { ToastContainer } from "react-toastify/unstyled";
import { TOAST_AUTO_CLOSE_MS } from "@cartner/contract";
import { LiveSync } from "../features/live/LiveSync.tsx";
import { StorageKey, getToken, subscribeStorage } from "../lib/storage.ts";
import { createQueryClient } from "./query-client.ts";
import { useOfflineCache } from "./use-offline-cache.ts";

interface AppProvidersProps {
  children: ReactNode;
  /** Tests pass their own client; the app makes one. */
  queryClient?: QueryClient;
}

export function AppProviders({ children, queryClient }: AppProvidersProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());

  useOfflineCache(client);

  // Whatever was cached for a user must not outlive their sign-in (here or in another tab).
  useEffect(
    () =>
      subscribeStorage((key) => {
        if ((key === null || key === StorageKey.token) && getToken() === null) client.clear();
      }),
    [client],
  );

  return (
    <QueryClientProvider client={client}>
      <LiveSync />
      {children}
      {/* SPEC section 9: top-right, 5 s by default, Alt+T focuses the notifications. */}
      <ToastContainer
        position="top-right"
        autoClose={TOAST_AUTO_CLOSE_MS}
        newestOnTop
        closeOnClick={false}
        pauseOnFocusLoss
        pauseOnHover
        draggable={false}
        theme="light"
        hotKeys={(event) => event.altKey && event.code === "KeyT"}
      />
    </QueryClientProvider>
  );
}
