import {
  JOIN_REQUEST_OUTCOMES,
  LIVE_EVENT_TYPES,
  LIVE_MOVE_JITTER_MS,
  LiveClose,
  type JoinRequestOutcome,
  type LiveEvent,
  type LiveEventType,
} from "@cartner/contract";
import type { LiveStatus } from "../../lib/live-status.ts";

/** Reconnect delays: 0.5 s doubling up to 30 s, each with jitter so tabs do not reconnect in step. */
export const BACKOFF_BASE_MS = 500;
export const BACKOFF_MAX_MS = 30_000;
/**
 * After a 4401 the token may already have been replaced by an answer still on its way (a
 * credential change signs out every old session and hands this tab a new token in the same
 * moment): wait this long before asking for a refresh that would sign the user out.
 */
export const TOKEN_SETTLE_MS = 1_000;

/** "Equal jitter": somewhere between half the ceiling and the ceiling of this attempt. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** attempt);
  return ceiling / 2 + random() * (ceiling / 2);
}

/** ws://host/api/live next to the page (wss:// under https). */
export function liveUrl(origin: string = window.location.origin): string {
  return `${origin.replace(/^http/, "ws")}/api/live`;
}

export type LiveMessage = { type: "ready" } | LiveEvent;

const eventTypes: readonly string[] = LIVE_EVENT_TYPES;
const outcomes: readonly string[] = JOIN_REQUEST_OUTCOMES;

/**
 * A server message, or null for anything else. Checked by hand rather than with the contract's zod
 * schema, which would put zod into the first page load.
 */
export function parseLiveMessage(data: unknown): LiveMessage | null {
  if (typeof data !== "string") return null;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const { type, sessionId, cartId, version, orderId, userId, joinRequest } = value as Record<
    string,
    unknown
  >;
  if (type === "ready") return { type };
  if (typeof type !== "string" || !eventTypes.includes(type)) return null;
  return {
    type: type as LiveEventType,
    ...(typeof sessionId === "string" ? { sessionId } : {}),
    ...(typeof cartId === "string" ? { cartId } : {}),
    ...(Number.isInteger(version) ? { version: version as number } : {}),
    ...(typeof orderId === "string" ? { orderId } : {}),
    ...(typeof userId === "string" ? { userId } : {}),
    ...(typeof joinRequest === "string" && outcomes.includes(joinRequest)
      ? { joinRequest: joinRequest as JoinRequestOutcome }
      : {}),
  };
}

export interface LiveClientOptions {
  url: string;
  getToken: () => string | null;
  /** Resolves to a new token, or null when refreshing failed (the app then signs out). */
  refreshToken: () => Promise<string | null>;
  onStatus: (status: LiveStatus) => void;
  /** Every time the server says ready: events may have been missed before it. */
  onReady: () => void;
  onEvent: (event: LiveEvent) => void;
  /** Tests pass a fake. */
  WebSocket?: typeof WebSocket;
  random?: () => number;
}

/**
 * Keeps one socket to GET /api/live open until the returned stop function is called: sends the
 * token first, reconnects with backoff after any close, and on 4401 refreshes the token once
 * before trying again. On 4429 (too many sockets for this account) it stops: the 5 s sync polls.
 * On 1001 (the instance is draining) it reconnects within LIVE_MOVE_JITTER_MS, still
 * "connecting" rather than down, since the server moved it on purpose; ready then refetches.
 */
export function startLiveClient(options: LiveClientOptions): () => void {
  const Socket = options.WebSocket ?? window.WebSocket;
  let socket: WebSocket | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  // One refresh per 4401 streak: a second 4401 before ready just backs off.
  let refreshTried = false;
  let stopped = false;

  function schedule(delay: number): void {
    clearTimeout(timer);
    timer = setTimeout(connect, delay);
  }

  function connect(): void {
    timer = undefined;
    if (stopped || options.getToken() === null) return;
    const ws = new Socket(options.url);
    socket = ws;
    let sentToken: string | null = null;
    ws.onopen = () => {
      sentToken = options.getToken();
      if (sentToken === null) ws.close(1000);
      else ws.send(JSON.stringify({ type: "auth", token: sentToken }));
    };
    ws.onmessage = (message: MessageEvent) => {
      if (socket === ws) receive(parseLiveMessage(message.data));
    };
    // Browsers follow an error with a close; closing makes sure of it.
    ws.onerror = () => ws.close();
    ws.onclose = (event: CloseEvent) => {
      if (socket !== ws) return;
      socket = null;
      void closed(event.code, sentToken);
    };
  }

  function receive(message: LiveMessage | null): void {
    if (message === null) return;
    if (message.type === "ready") {
      attempt = 0;
      refreshTried = false;
      options.onStatus("up");
      options.onReady();
    } else {
      options.onEvent(message);
    }
  }

  async function closed(code: number, sentToken: string | null): Promise<void> {
    if (code === LiveClose.TOO_MANY) {
      // The server has too many of this account's sockets: polling (5 s sync) takes over here.
      options.onStatus("limited");
      return;
    }
    if (code === LiveClose.GOING_AWAY && attempt === 0 && !stopped) {
      // Moved by a draining instance: back at once (a moment apart from the other tabs); if
      // that fails, or it happens again before a ready, the backoff and offline grace take over.
      attempt++;
      options.onStatus("connecting");
      schedule((options.random ?? Math.random)() * LIVE_MOVE_JITTER_MS);
      return;
    }
    options.onStatus("down");
    if (stopped) return;
    if (code === LiveClose.UNAUTHORIZED && !refreshTried) {
      refreshTried = true;
      if (options.getToken() === sentToken) {
        clearTimeout(timer);
        timer = setTimeout(() => void renew(sentToken), TOKEN_SETTLE_MS);
      } else {
        await renew(sentToken);
      }
      return;
    }
    schedule(backoffDelay(attempt++, options.random));
  }

  /** After a 4401: reconnect with a token renewed meanwhile, or refresh the one we sent. */
  async function renew(sentToken: string | null): Promise<void> {
    const current = options.getToken();
    const fresh =
      current !== null && current !== sentToken
        ? current
        : await options.refreshToken().catch(() => null);
    if (stopped) return;
    if (fresh === null) {
      schedule(backoffDelay(attempt++, options.random));
      return;
    }
    clearTimeout(timer);
    connect();
  }

  options.onStatus("connecting");
  connect();

  return () => {
    stopped = true;
    clearTimeout(timer);
    const ws = socket;
    socket = null;
    ws?.close(1000);
    options.onStatus("off");
  };
}
