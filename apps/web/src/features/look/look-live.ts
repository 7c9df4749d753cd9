import { LiveClose, type LookView } from "@cartner/contract";
import { backoffDelay, liveUrl } from "../live/index.ts";

export interface LookLiveOptions {
  token: string;
  /** The list as the link shows it now: at once after connecting, then after every change. */
  onView: (view: LookView) => void;
  /** The link no longer works (revoked, expired, the shop is over): no reconnecting. */
  onGone: () => void;
  /** Whether the list is live now (false while reconnecting). */
  onLive: (live: boolean) => void;
  /** Tests pass a fake. */
  WebSocket?: typeof WebSocket;
}

/** A server message of a look-only socket, or null for anything else. */
export function parseLookMessage(data: unknown): { type: "ready" } | { view: LookView } | null {
  if (typeof data !== "string") return null;
  try {
    const value = JSON.parse(data) as { type?: unknown; view?: LookView };
    if (value.type === "ready") return { type: "ready" };
    if (value.type === "look.view" && value.view && Array.isArray(value.view.lines)) {
      return { view: value.view };
    }
  } catch {
    // Not JSON: ignored.
  }
  return null;
}

/**
 * Keeps a look-only socket (GET /api/live?look=) open until the returned stop function is called:
 * no account, no message sent; reconnects with backoff after a drop, and stops for good when the
 * server says the link no longer works (4404).
 */
export function startLookLive(options: LookLiveOptions): () => void {
  const Socket = options.WebSocket ?? window.WebSocket;
  let socket: WebSocket | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  let stopped = false;

  function connect() {
    if (stopped) return;
    const ws = new Socket(`${liveUrl()}?look=${encodeURIComponent(options.token)}`);
    socket = ws;
    ws.onmessage = (message: MessageEvent) => {
      const parsed = parseLookMessage(message.data);
      if (parsed === null || socket !== ws) return;
      if ("view" in parsed) options.onView(parsed.view);
      else {
        attempt = 0;
        options.onLive(true);
      }
    };
    ws.onerror = () => ws.close();
    ws.onclose = (event: CloseEvent) => {
      if (socket !== ws || stopped) return;
      socket = null;
      options.onLive(false);
      if (event.code === LiveClose.LINK_GONE) {
        options.onGone();
        return;
      }
      // Too many open for this link: the page keeps what it shows, without updates.
      if (event.code === LiveClose.TOO_MANY) return;
      timer = setTimeout(connect, backoffDelay(attempt++));
    };
  }

  connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    socket?.close(1000);
    socket = null;
  };
}
