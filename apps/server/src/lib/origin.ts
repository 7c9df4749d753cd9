/** Names a browser may use for this machine: a page opened under one is served by the same server. */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Builds the test of whether a browser's Origin is the app's own: APP_ORIGIN exactly or, when
 * APP_ORIGIN is a loopback address, the same scheme and port under another loopback name (a
 * developer opening http://127.0.0.1:3000, which the server's start-up log prints, for
 * http://localhost:3000). No other site's page can send a loopback Origin, so this admits no one
 * new. APP_ORIGIN is parsed once here, not on every request.
 */
export function appOriginTest(appOrigin: string): (origin: string) => boolean {
  const app = new URL(appOrigin);
  const loopback = LOOPBACK.has(app.hostname);
  return (origin) => {
    if (origin === appOrigin) return true;
    if (!loopback) return false;
    let page: URL;
    try {
      page = new URL(origin);
    } catch {
      return false;
    }
    return LOOPBACK.has(page.hostname) && page.protocol === app.protocol && page.port === app.port;
  };
}
