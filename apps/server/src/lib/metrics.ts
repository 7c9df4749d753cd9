/**
 * What the modules with a natural hook count (the caches, the live hub, group commit, the mailer,
 * the jobs): a call each, which does nothing until plugins/metrics.ts turns metrics on
 * (METRICS_TOKEN) and points these at prom-client's counters. So a server without metrics loads
 * no metrics library and pays a call to an empty function.
 */
/**
 * The per-process caches: member reads, checked auth sessions, and the orders kept by version
 * (their views, open parts and list pages: features/orders/reading/kept.ts).
 */
export type CacheName =
  | "reads"
  | "auth_sessions"
  | "orders"
  | "order_parts"
  | "order_pages"
  | "activity_pages"
  | "notification_pages"
  | "order_csv"
  | "balances"
  | "settle_plans";

export const meter = {
  /** A lookup of a per-process cache: answered from it (hit) or not. */
  cacheLookup(_cache: CacheName, _hit: boolean): void {},
  /** Several lookups of a per-process cache at once: `hits` answered from it, `misses` not. */
  cacheLookups(_cache: CacheName, _hits: number, _misses: number): void {},
  /** A signed-in live socket opened (+1) or closed (-1). */
  liveSocket(_delta: 1 | -1): void {},
  /** A change's event reached this instance's sockets this long after its publish. */
  liveDelivered(_seconds: number): void {},
  /** `size` calls went to the database as one batch of group commit `name`. */
  batch(_name: string, _size: number): void {},
  /** A mail was accepted (sent) or refused. */
  mail(_sent: boolean): void {},
  /** A job run of `queue` failed (it is retried by its queue's rule). */
  jobFailed(_queue: string): void {},
};
