/**
 * The database's tables, one file per concern in schema/; drizzle-kit reads this file (drizzle.config.ts)
 * and the server imports every table from it.
 */
export * from "./schema/accounts.ts";
export * from "./schema/catalog.ts";
export * from "./schema/sessions.ts";
export * from "./schema/carts.ts";
export * from "./schema/orders.ts";
export * from "./schema/ledger.ts";
export * from "./schema/requests.ts";
export * from "./schema/notifications.ts";
export * from "./schema/channels.ts";
export * from "./schema/deadlines.ts";
export * from "./schema/payments.ts";
