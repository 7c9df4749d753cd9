/** Names a browser may use for this machine: a page opened under one is served by the same server. */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Whether a browser's Origin is the app's own: APP_ORIGIN exactly or, when APP_ORIGIN is a loopback
 * address, the same scheme and port under another loopback name (a developer opening
 * http://127.0.0.1:3000, which the server's start-up log prints, for http://localhost:3000). No
 * other site's page can send a loopback Origin, so this admits no one new.
 */
export function isAppOrigin(origin: string, appOrigin: string): boolean {
  if (origin === appOrigin) return true;
  let page: URL;
  let app: URL;
  try {
    page = new URL(origin);
    app = new URL(appOrigin);
  } catch {
    return false;
  }
  return (
    LOOPBACK.has(app.hostname) &&
    LOOPBACK.has(page.hostname) &&
    page.protocol === app.protocol &&
    page.port === app.port
  );
}
