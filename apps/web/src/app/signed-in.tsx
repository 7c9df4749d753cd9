import { sharesToPayLabel, unpaidShareCount } from "../features/orders/index.ts";
import { useOrdersToPay } from "../api/orders.ts";
import { useDeploymentCurrency } from "../api/payments.ts";
import { LiveSync } from "../features/live/LiveSync.tsx";
import { NotificationBell } from "../features/notifications/index.ts";
import { useAuth } from "../lib/auth-store.ts";
import { SessionSelector } from "../features/sessions/SessionSelector.tsx";
import { QueryProvider, getQueryClient } from "./query-client.tsx";
import { useOfflineCache } from "./use-offline-cache.ts";

/*
 * The parts of the layout only a signed-in user has, in their own chunk (the visitor's first load
 * of / and /login does without them and without the query client they use).
 */

/** The live connection (changes pushed as they commit) and the offline copy of the user's data. */
export function SignedInServices() {
  useOfflineCache(getQueryClient());
  return (
    <QueryProvider>
      <LiveSync />
      <DeploymentCurrency />
    </QueryProvider>
  );
}

/** The server's currency for every amount (lib/format.ts). */
function DeploymentCurrency() {
  useDeploymentCurrency();
  return null;
}

/** "You're currently shopping on:" under the navigation bar. */
export function SessionBar({ hidden }: { hidden: boolean }) {
  return (
    <QueryProvider>
      <SessionSelector hidden={hidden} />
    </QueryProvider>
  );
}

/** The bell with the unread count and the panel of notifications, in the header. */
export function NotificationsBell() {
  return (
    <QueryProvider>
      <NotificationBell />
    </QueryProvider>
  );
}

/**
 * The count of the user's shares still to pay, next to My Orders in the navigation bar. From the
 * orders list (the same query as My Orders, refetched by the live order events); nothing when 0.
 */
export function UnpaidSharesCount() {
  return (
    <QueryProvider>
      <UnpaidSharesBadge />
    </QueryProvider>
  );
}

function UnpaidSharesBadge() {
  const { user } = useAuth();
  const toPay = useOrdersToPay();
  const count = toPay.data ? unpaidShareCount(toPay.data.orders, user?._id) : 0;
  if (count === 0) return null;
  const more = toPay.data?.more ?? false;
  return (
    <span
      data-testid="unpaid-shares"
      className="inline-flex min-w-5 items-center justify-center rounded-full bg-accent-100 px-1.5 text-xs font-bold text-accent-800 tabular-nums ring-1 ring-accent-300 ring-inset"
    >
      <span aria-hidden="true">{more ? `${count}+` : count}</span>
      <span className="sr-only">{` (${more ? "more than " : ""}${sharesToPayLabel(count)})`}</span>
    </span>
  );
}
