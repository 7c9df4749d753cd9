import { ErrorCode } from "@cartner/contract";
import { toast } from "./toast.ts";
import { navigateTo } from "./navigation.ts";
import { asApiErrorBody, tokenOf } from "./shapes.ts";
import { clearCredentials, getToken, setToken } from "./storage.ts";

/** A 401 on refresh shows this and redirects to /login. */
export const SESSION_EXPIRED_MESSAGE = "Session expired. Please login again.";
const SESSION_EXPIRED_TOAST_ID = "session-expired";

/** Every failed call ends in one of these: the API's `{ message, code, fields? }`, with the status. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string> | undefined;
  /** Seconds to wait, from a 429's Retry-After header. */
  readonly retryAfterSeconds: number | undefined;
  /** True when `message` came from the server (and so may be shown to the user as is). */
  readonly hasServerMessage: boolean;
  /** The answer's body as sent: some errors carry more than message, code and fields. */
  readonly body: unknown;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    fields?: Record<string, string> | undefined;
    retryAfterSeconds?: number | undefined;
    hasServerMessage: boolean;
    body?: unknown;
  }) {
    super(init.message);
    this.name = "ApiError";
    this.status = init.status;
    this.code = init.code;
    this.fields = init.fields;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.hasServerMessage = init.hasServerMessage;
    this.body = init.body;
  }
}

/**
 * Nothing to show: a 404, or a 400 on a malformed id in the path (the id, cartId or sessionId
 * field), which cannot name anything either.
 */
export function isNotFound(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 404) return true;
  return error.status === 400 && ["id", "cartId", "sessionId"].some((f) => error.fields?.[f]);
}

/** The server's message when there is one, else the caller's fallback ("{message or ...}"). */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.hasServerMessage && error.message.trim() !== "") {
    return error.message;
  }
  return fallback;
}

export interface RequestOptions {
  method?: string;
  /** A JSON-serialisable value, or FormData for multipart uploads. */
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Send the Bearer token when there is one (default true). */
  auth?: boolean;
  /** On a 401 TOKEN_EXPIRED, refresh the token once and retry (default true). */
  retryOnExpiredToken?: boolean;
  /** "blob" for files (a PDF receipt); errors are still read as JSON. */
  responseType?: "json" | "blob";
  /**
   * The Idempotency-Key of a write the client made once and may send again (a queued cart change
   * keeps its own); without one, a signed-in write gets a fresh key per call.
   */
  idempotencyKey?: string | undefined;
}

function parseRetryAfter(header: string | null): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(header);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

async function send(
  path: string,
  options: RequestOptions,
  token: string | null,
): Promise<Response> {
  const headers = new Headers(options.headers);
  headers.set("Accept", "application/json");
  if (options.idempotencyKey) headers.set("Idempotency-Key", options.idempotencyKey);
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(options.body);
  }
  if (token) headers.set("Authorization", `Bearer ${token}`);
  try {
    return await fetch(path, {
      method: options.method ?? "GET",
      headers,
      body,
      signal: options.signal,
      credentials: "same-origin",
    });
  } catch (error) {
    if (isAbortError(error)) throw error;
    throw new ApiError({
      status: 0,
      code: "NETWORK_ERROR",
      message: "Could not reach the Cartner server. Check your connection and try again.",
      hasServerMessage: false,
    });
  }
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function toApiError(response: Response, body: unknown): ApiError {
  const retryAfterSeconds = parseRetryAfter(response.headers.get("Retry-After"));
  const parsed = asApiErrorBody(body);
  if (parsed) {
    return new ApiError({
      status: response.status,
      code: parsed.code,
      message: parsed.message,
      fields: parsed.fields,
      retryAfterSeconds,
      hasServerMessage: true,
      body,
    });
  }
  return new ApiError({
    status: response.status,
    code: `HTTP_${response.status}`,
    message: `Request failed with status ${response.status}`,
    retryAfterSeconds,
    hasServerMessage: false,
  });
}

async function handle<T>(response: Response, responseType?: "json" | "blob"): Promise<T> {
  if (response.ok && responseType === "blob") return (await response.blob()) as T;
  const body = await readBody(response);
  if (!response.ok) throw toApiError(response, body);
  return body as T;
}

// Token refresh: one request at a time, shared by every caller that needs it.

let refreshInFlight: Promise<string | null> | null = null;

/** Signs out locally after a failed refresh. */
async function endSignIn(expired: boolean): Promise<void> {
  if (expired) {
    toast.error(SESSION_EXPIRED_MESSAGE, { toastId: SESSION_EXPIRED_TOAST_ID, autoClose: 8000 });
  }
  // Leave the protected page first, so the route guard does not bounce the user to / instead.
  await navigateTo("/login");
  clearCredentials();
}

async function runRefresh(): Promise<string | null> {
  const token = getToken();
  if (!token) return null;
  let response: Response;
  try {
    response = await send("/api/auth/refresh-token", { method: "POST" }, token);
  } catch {
    await endSignIn(false);
    return null;
  }
  const body = await readBody(response);
  // Signed out or in as someone else while we waited: leave their credentials alone.
  if (getToken() !== token) return getToken();
  const newToken = tokenOf(body);
  if (response.ok && newToken !== null) {
    setToken(newToken);
    return newToken;
  }
  await endSignIn(response.status === 401);
  return null;
}

/**
 * Exchanges the current token for a new one. Concurrent callers share one request. Resolves to the
 * new token, or null when there is none (no token, or the refresh failed and the user was signed out).
 */
export function refreshAccessToken(): Promise<string | null> {
  refreshInFlight ??= runRefresh().finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * A signed-in write carries an Idempotency-Key, and is sent once more with the same key when the
 * network failed on the way: if the first one did reach the server, the retry gets its answer
 * instead of doing it twice (the server replays a key's first answer for 24 h).
 */
async function sendOnce(path: string, options: RequestOptions, token: string | null) {
  if (!token || !WRITES.has(options.method ?? "GET")) return send(path, options, token);
  const keyed: RequestOptions = {
    ...options,
    idempotencyKey: options.idempotencyKey ?? crypto.randomUUID(),
  };
  try {
    return await send(path, keyed, token);
  } catch (error) {
    if (error instanceof ApiError && error.status === 0) return send(path, keyed, token);
    throw error;
  }
}

/*
 * Early reads. A signed-in page opened directly (a link, a reload) needs its data before anything
 * else, but its request only went out once its chunk had loaded and React had rendered it: on a
 * slow phone that is after the entry, React, the signed-in layout's chunks and the page's own.
 * The app's start asks for that data at once (app/early-data.ts); the page's own first call for
 * the same path and token then takes the answer on its way instead of asking again. Taken once,
 * and only while fresh: a later visit asks the server as before.
 */
const EARLY_MAX_AGE_MS = 10_000;
const early = new Map<string, { token: string; at: number; response: Promise<Response> }>();

/** Starts the signed-in user's GETs of these paths now (nothing when signed out or offline). */
export function startEarlyGets(paths: readonly string[]): void {
  const token = getToken();
  if (!token || (typeof navigator !== "undefined" && !navigator.onLine)) return;
  for (const path of paths) {
    const response = send(path, {}, token);
    // A failure is the taker's to handle; one nobody takes must not be reported as unhandled.
    response.catch(() => undefined);
    early.set(path, { token, at: Date.now(), response });
  }
}

/**
 * Drops the early answers not taken yet. The live connection calls it when it is ready: an answer
 * asked for before then may miss a change the connection will not repeat, and a page taking it
 * afterwards would not be refreshed by the connection's catch-up (which refetches what is loaded).
 */
export function forgetEarlyGets(): void {
  early.clear();
}

/** The answer to an early GET of this path with this token, once, while it is fresh. */
function takeEarlyGet(path: string, options: RequestOptions, token: string | null) {
  const found = early.get(path);
  if (!found) return undefined;
  early.delete(path);
  const plainGet =
    (options.method ?? "GET") === "GET" &&
    options.body === undefined &&
    options.headers === undefined &&
    options.responseType !== "blob";
  if (!plainGet || found.token !== token || Date.now() - found.at > EARLY_MAX_AGE_MS) return;
  return found.response;
}

/** fetch for our JSON API: Bearer token, error parsing, one refresh-and-retry on an expired token. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const token = options.auth === false ? null : getToken();
  const response =
    (await takeEarlyGet(path, options, token)) ?? (await sendOnce(path, options, token));
  if (response.ok) return handle<T>(response, options.responseType);

  const error = toApiError(response, await readBody(response));
  const expired =
    response.status === 401 &&
    token !== null &&
    error.code === ErrorCode.TOKEN_EXPIRED &&
    options.retryOnExpiredToken !== false;
  if (!expired) throw error;

  // Another call may already have refreshed while this one was in flight.
  const current = getToken();
  const fresh = current && current !== token ? current : await refreshAccessToken();
  if (!fresh) throw error;
  return handle<T>(await send(path, options, fresh), options.responseType);
}

/** GET /api/conhealth is called when the app loads and its result is logged. */
export async function logConnectionHealth(): Promise<void> {
  try {
    const health = await apiRequest<unknown>("/api/conhealth", { auth: false });
    console.info("Cartner API health:", health);
  } catch (error) {
    console.info(
      "Cartner API health check failed:",
      error instanceof Error ? error.message : String(error),
    );
  }
}
