import type { ApiError, User } from "@cartner/contract";

/*
 * Shape checks for the few values the app reads before any page is shown: the stored user, error
 * bodies and the refresh answer. They mirror the contract's UserSchema, ApiErrorSchema and
 * TokenResponseSchema by hand (the contract's types keep them in step) so that zod, about 30 KB gzip
 * and a noticeable start-up cost on a phone, stays out of the first load; pages that validate forms
 * load it with their own chunk.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isUser(value: unknown): value is User {
  return (
    isRecord(value) &&
    typeof value._id === "string" &&
    typeof value.name === "string" &&
    typeof value.email === "string"
  );
}

/** An error body as read: a proxy's or an older server's may lack the request id. */
export type ApiErrorBody = Omit<ApiError, "requestId"> & { requestId?: string };

/**
 * The API's error body `{ message, code, fields?, requestId }`, or null when the body is something
 * else.
 */
export function asApiErrorBody(value: unknown): ApiErrorBody | null {
  if (!isRecord(value) || typeof value.message !== "string" || typeof value.code !== "string") {
    return null;
  }
  const { fields, requestId } = value;
  const body: ApiErrorBody = { message: value.message, code: value.code };
  if (typeof requestId === "string") body.requestId = requestId;
  if (fields === undefined) return body;
  if (!isRecord(fields) || !Object.values(fields).every((v) => typeof v === "string")) return null;
  return { ...body, fields: fields as Record<string, string> };
}

/** The token of a refresh answer `{ token }`, or null. */
export function tokenOf(value: unknown): string | null {
  return isRecord(value) && typeof value.token === "string" ? value.token : null;
}
