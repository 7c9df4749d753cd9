import rateLimit, { normalizeIP } from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import type { Config } from "../config.ts";
import { accountOf, bearerOf, type AuthDeps } from "../features/auth/index.ts";
import type { Clock } from "../lib/clock.ts";
import { tooManyRequests } from "../lib/errors.ts";
import { isApiPath } from "./web-static.ts";

const MINUTE_MS = 60_000;
/** Keys kept per store; the least recently counted go first (as the plugin's own store). */
const MAX_KEYS = 10_000;

const refusal = (ttlMs: number) => {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  return tooManyRequests(`Too many requests. Please try again in ${seconds} s.`, seconds);
};

/** Counts per key in fixed windows, on the app's clock (tests move it as they move tokens). */
function createWindows(clock: Clock) {
  const windows = new Map<string, { count: number; start: number }>();
  return {
    /** One more request for `key`: the count in its current window and the time left in it. */
    hit(key: string, windowMs: number): { count: number; ttlMs: number } {
      const now = clock.now().getTime();
      const current = windows.get(key);
      const window = current && current.start + windowMs > now ? current : { count: 0, start: now };
      window.count += 1;
      windows.delete(key);
      windows.set(key, window);
      if (windows.size > MAX_KEYS) windows.delete(windows.keys().next().value!);
      return { count: window.count, ttlMs: window.start + windowMs - now };
    },
  };
}

/** The plugin's store interface over createWindows; each route budget gets a store of its own. */
function clockStore(clock: Clock) {
  return class ClockStore {
    private readonly windows = createWindows(clock);
    incr(
      key: string,
      callback: (error: null, result: { current: number; ttl: number }) => void,
      timeWindow: number,
    ) {
      const { count, ttlMs } = this.windows.hit(key, timeWindow);
      callback(null, { current: count, ttl: ttlMs });
    }
    child() {
      return new ClockStore();
    }
  };
}

/**
 * Request budgets per minute, counted before any route hook (authentication included):
 *
 * - the sign-in and joining routes: their own per-address budgets, set on the route;
 * - a signed-in call (a token that verifies, no database read): RATE_LIMIT for its account, and
 *   RATE_LIMIT_PER_ADDRESS for every account behind one address together (a household, an
 *   office), so many accounts from one place are still bounded;
 * - any other call of the API or /metrics (no token, or one that does not verify): RATE_LIMIT
 *   per address;
 * - the live socket's upgrade: RATE_LIMIT per address of its own, so no page load starves it;
 * - pictures, avatars (routes with `rateLimit: false`) and the web app's files: none, since a
 *   page shows dozens of them and each is a file or a cached read.
 *
 * Answers 429 in the API's `{ message, code }` shape, with Retry-After.
 */
export async function registerRateLimits(
  app: FastifyInstance,
  config: Config,
  deps: {
    clock: Clock;
    /** The token service: the account a bearer token names, if it verifies (accountOf). */
    auth: Pick<AuthDeps, "tokens">;
  },
): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    timeWindow: MINUTE_MS,
    store: clockStore(deps.clock),
    errorResponseBuilder: (_request, context) => refusal(context.ttl),
  });

  const windows = createWindows(deps.clock);
  /** One more request against a budget: its refusal when over. */
  const over = (name: string, max: number) => {
    const { count, ttlMs } = windows.hit(name, MINUTE_MS);
    return count > max ? refusal(ttlMs) : undefined;
  };
  /**
   * Counts a request against what applies: with a signed-in account, its budget and then its
   * address's for all accounts; else the address's under `key`. A refusal goes to `done`.
   */
  const spend = (done: (error?: Error) => void, address: string, key: string, account?: string) =>
    done(
      account === undefined
        ? over(`${key}:${address}`, config.rateLimit)
        : (over(`account:${account}`, config.rateLimit) ??
            over(`accounts-at:${address}`, config.rateLimitPerAddress)),
    );
  // normalizeIP parses IPv6 addresses: done once per address, not per request.
  const addresses = new Map<string, string>();
  const normalized = (ip: string) => {
    let address = addresses.get(ip);
    if (address === undefined) {
      if (addresses.size >= MAX_KEYS) addresses.clear();
      address = normalizeIP(ip);
      addresses.set(ip, address);
    }
    return address;
  };

  // Synchronous (done, no promise) unless the token has not been verified before.
  app.addHook("onRequest", (request, _reply, done) => {
    // A route's own budget (an object, applied by the plugin) or none (false).
    if (request.routeOptions.config.rateLimit !== undefined) return done();
    const { url } = request;
    const query = url.indexOf("?");
    const pathname = query < 0 ? url : url.slice(0, query);
    if (!isApiPath(pathname) && pathname !== "/metrics") return done();
    const address = normalized(request.ip);
    if (request.routeOptions.url === "/api/live") return spend(done, address, "live");
    const token = bearerOf(request.headers.authorization);
    if (!token) return spend(done, address, "address");
    const known = deps.auth.tokens.known(token);
    if (known) return spend(done, address, "address", known.userId);
    accountOf(deps.auth, token).then((account) => spend(done, address, "address", account), done);
  });
}
