import { z } from "zod";

/**
 * Every error the API returns has this shape, with its HTTP status. `requestId` is the request's
 * id, also in its `X-Request-Id` header and in every log line of the request.
 */
export const ApiErrorSchema = z.object({
  message: z.string(),
  code: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
  requestId: z.string().describe("The request's id: its X-Request-Id and its log lines' requestId"),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;

export const ErrorCode = {
  VALIDATION: "VALIDATION_ERROR",
  INVALID_JSON: "INVALID_JSON",
  UNAUTHORIZED: "UNAUTHORIZED",
  TOKEN_EXPIRED: "TOKEN_EXPIRED",
  INVALID_CREDENTIALS: "INVALID_CREDENTIALS",
  INVALID_CODE: "INVALID_CODE",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  /**
   * The cart takes no changes: it was checked out (it is an order now), or its deadline passed
   * (the message says when it closed; the creator may reopen it).
   */
  CART_LOCKED: "CART_LOCKED",
  EMPTY_CART: "EMPTY_CART",
  /** A member who still carries lines of the cart cannot become a viewer (viewers never pay). */
  MEMBER_HAS_LINES: "MEMBER_HAS_LINES",
  ALREADY_CHECKED_OUT: "ALREADY_CHECKED_OUT",
  /**
   * Checkout: lines want more than the stock has left (409): the answer's `lines` name them and
   * what is left; nothing is stored. `overStock: "take_what_is_left"` checks out what there is.
   */
  OUT_OF_STOCK: "OUT_OF_STOCK",
  /**
   * Checkout with lines waiting for approval and `pending: "wait"` (the default) (409): the
   * answer's `lines` name them; approve or decline them, or check out with `pending: "drop"`.
   */
  PENDING_APPROVALS: "PENDING_APPROVALS",
  /**
   * Deleting an account that still owes or is owed on orders (409): the answer lists the shares;
   * the same request with `acknowledgeUnsettled: true` deletes anyway.
   */
  UNSETTLED_SHARES: "UNSETTLED_SHARES",
  /** Invite links that no longer work (410). */
  LINK_EXPIRED: "LINK_EXPIRED",
  LINK_USED_UP: "LINK_USED_UP",
  LINK_REVOKED: "LINK_REVOKED",
  /** The same Idempotency-Key with another request (422). */
  IDEMPOTENCY_MISMATCH: "IDEMPOTENCY_MISMATCH",
  /** The first request with this key never finished (a crash): it may or may not have applied. */
  IDEMPOTENCY_IN_DOUBT: "IDEMPOTENCY_IN_DOUBT",
  /** The first request with this key was done, and its answer carries a secret: never kept (409). */
  IDEMPOTENCY_ANSWER_NOT_KEPT: "IDEMPOTENCY_ANSWER_NOT_KEPT",
  EMAIL_TAKEN: "EMAIL_TAKEN",
  WEAK_PASSWORD: "WEAK_PASSWORD",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  HEADERS_TOO_LARGE: "HEADERS_TOO_LARGE",
  URI_TOO_LONG: "URI_TOO_LONG",
  REQUEST_TIMEOUT: "REQUEST_TIMEOUT",
  UNSUPPORTED_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
  RATE_LIMITED: "RATE_LIMITED",
  MAIL_FAILED: "MAIL_FAILED",
  UNAVAILABLE: "SERVICE_UNAVAILABLE",
  INTERNAL: "INTERNAL_ERROR",
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
