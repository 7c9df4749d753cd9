/** Names a browser may use for this machine: a page opened under one is served by the same server. */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Builds the test of whether a browser's Origin is allowed (CORS and the live socket): one of
 * `allowed` exactly or, for a loopback one, the same scheme and port under another loopback name
 * (a developer opening http://127.0.0.1:3000, which the server's start-up log prints, for
 * http://localhost:3000). No other site's page can send a loopback Origin, so this admits no one
 * new. The origins are parsed once here, not on every request.
 */
export function allowedOriginTest(allowed: readonly string[]): (origin: string) => boolean {
  const exact = new Set(allowed);
  // Scheme and port of each loopback origin ("http::3000"): a loopback page must have one of them.
  const loopback = new Set(
    allowed
      .map((origin) => new URL(origin))
      .filter((url) => LOOPBACK.has(url.hostname))
      .map((url) => `${url.protocol}:${url.port}`),
  );
  return (origin) => {
    if (exact.has(origin)) return true;
    if (loopback.size === 0) return false;
    let page: URL;
    try {
      page = new URL(origin);
    } catch {
      return false;
    }
    return LOOPBACK.has(page.hostname) && loopback.has(`${page.protocol}:${page.port}`);
  };
}
