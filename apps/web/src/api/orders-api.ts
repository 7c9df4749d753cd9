import type { SettlementKind } from "@cartner/contract";
import { call } from "../lib/call.ts";

/** Checkout, orders and balances (API.md "Checkout, orders, settling up"). */
export const ordersApi = {
  checkout: (sessionId: string) =>
    call("POST /api/sessions/:id/checkout", { params: { id: sessionId } }),
  list: (signal?: AbortSignal) => call("GET /api/orders", {}, { signal }),
  get: (id: string, signal?: AbortSignal) =>
    call("GET /api/orders/:id", { params: { id } }, { signal }),
  markPaid: (id: string) => call("POST /api/orders/:id/paid", { params: { id } }),
  /** Settles a member's share (payee): a confirmed transfer, or cash, or written off. */
  confirm: (id: string, userId: string, how: SettlementKind = "transfer") =>
    call("POST /api/orders/:id/confirm/:userId", { params: { id, userId }, body: { how } }),
  resendMail: (id: string) => call("POST /api/orders/:id/mail", { params: { id } }),
  balances: (signal?: AbortSignal) => call("GET /api/balances", {}, { signal }),
  /** The receipt as a file (the route needs the bearer token, so a plain link cannot fetch it). */
  receipt: (id: string) =>
    call(
      "GET /api/orders/:id/receipt.pdf",
      { params: { id } },
      { responseType: "blob" },
    ) as unknown as Promise<Blob>,
};

/** Everything order-related lives under ["orders"], so one invalidation covers it. */
export const orderKeys = {
  all: ["orders"] as const,
  list: () => ["orders", "list"] as const,
  detail: (id: string) => ["orders", "detail", id] as const,
  balances: () => ["orders", "balances"] as const,
};
