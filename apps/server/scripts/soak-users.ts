/**
 * The soak's virtual users: a timed client that counts every answer, sign-up, sessions of four,
 * and each user's endless visit of browsing, reading and cart writes.
 */
import crypto from "node:crypto";
import { mailboxCode } from "./bench-support.ts";

export const THINK_MS = Number(process.env.SOAK_THINK_MS ?? 50);
/** A user keeps at most this many of a product in its own line (stock allows all users that). */
export const MAX_PER_LINE = 5;
const PASSWORD = "soak-marker-2026";
const REQUEST_TIMEOUT_MS = 30_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every call's latency, by operation, and the errors with a few samples. */
export class Stats {
  readonly latencies: number[] = [];
  readonly byOp = new Map<string, number[]>();
  errors = 0;
  readonly errorSamples: string[] = [];

  record(op: string, ms: number) {
    this.latencies.push(ms);
    let list = this.byOp.get(op);
    if (!list) this.byOp.set(op, (list = []));
    list.push(ms);
  }

  error(op: string, detail: string) {
    this.errors += 1;
    if (this.errorSamples.length < 10) this.errorSamples.push(`${op}: ${detail}`);
  }
}

export interface Api {
  (
    op: string,
    method: string,
    url: string,
    options?: { token?: string; body?: unknown },
  ): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Every call is timed and counted; any answer but 2xx (or a failed connection) is an error. */
export function client(base: string, stats: Stats | undefined): Api {
  return async (op, method, url, options = {}) => {
    const started = performance.now();
    try {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: {
          ...(options.body === undefined ? {} : { "content-type": "application/json" }),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await res.text();
      stats?.record(op, performance.now() - started);
      if (res.status < 200 || res.status >= 300) {
        stats?.error(op, `${res.status} ${text.slice(0, 200)}`);
        if (!stats) throw new Error(`${op}: ${res.status} ${text}`);
      }
      return { status: res.status, body: text ? JSON.parse(text) : null };
    } catch (error) {
      if (!stats) throw error;
      stats.record(op, performance.now() - started);
      stats.error(op, String(error));
      return { status: 0, body: null };
    }
  };
}

export interface VirtualUser {
  name: string;
  email: string;
  userId: string;
  token: string;
  cartId: string;
  sessionId: string;
  /** The user's own lines: product id -> quantity, as the server must have them. */
  lines: Map<string, number>;
}

export async function signUp(api: Api, base: string, name: string): Promise<VirtualUser> {
  const email = `soak.${name.toLowerCase()}.${crypto.randomBytes(4).toString("hex")}@example.com`;
  const { body } = await api("register", "POST", "/api/auth/register", {
    body: { name, email, password: PASSWORD },
  });
  const code = await mailboxCode(base, email);
  const verified = await api("verify", "POST", "/api/auth/verify-otp", {
    body: { userId: body.userId, code },
  });
  return {
    name,
    email,
    userId: body.userId,
    token: verified.body.token,
    cartId: "",
    sessionId: "",
    lines: new Map(),
  };
}

/** Sessions of four: the first user creates, the others join by code and are approved. */
export async function formSessions(api: Api, users: VirtualUser[]) {
  for (let i = 0; i < users.length; i += 4) {
    const [creator, ...others] = users.slice(i, i + 4);
    const { body } = await api("create session", "POST", "/api/sessions", {
      token: creator!.token,
      body: {
        sessionName: `Soak ${i / 4 + 1}`,
        sessionType: "Friends",
        participants: "3+",
        passcode: "soak",
      },
    });
    const { _id, cartId, sessionCode } = body.session;
    for (const u of [creator!, ...others]) Object.assign(u, { sessionId: _id, cartId });
    for (const u of others) {
      await api("join", "POST", "/api/sessions/join/code", {
        token: u.token,
        body: { sessionCode, passcode: "soak" },
      });
      await api("approve", "POST", `/api/sessions/approve/${sessionCode}`, {
        token: creator!.token,
        body: { userId: u.userId },
      });
    }
  }
}

const QUERIES = [
  "",
  "?sort=price_asc",
  "?sort=rating",
  "?category=Electronics",
  "?category=Groceries&category=Drinks",
  "?q=tea",
  "?minPrice=5&maxPrice=50&sort=price_desc",
  "?limit=12&offset=12",
];
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;

/** One user's endless visit: mostly browsing and reading, a third cart writes. */
export async function visit(api: Api, user: VirtualUser, productIds: string[], until: number) {
  let refreshAt = Date.now() + 10 * 60_000; // tokens live 15 minutes
  while (Date.now() < until) {
    const auth = { token: user.token };
    const roll = Math.random();
    const own = [...user.lines.keys()];
    if (Date.now() > refreshAt) {
      const { body } = await api("refresh token", "POST", "/api/auth/refresh-token", auth);
      if (body?.token) user.token = body.token;
      refreshAt = Date.now() + 10 * 60_000;
    } else if (roll < 0.2) {
      await api("browse products", "GET", `/api/products${pick(QUERIES)}`, auth);
    } else if (roll < 0.3) {
      await api("product detail", "GET", `/api/products/${pick(productIds)}`, auth);
    } else if (roll < 0.45) {
      const productId = pick(productIds);
      const has = user.lines.get(productId) ?? 0;
      if (has < MAX_PER_LINE) {
        const { status } = await api("add to cart", "POST", `/api/carts/${user.cartId}/product`, {
          ...auth,
          body: { productId, quantity: 1 },
        });
        if (status === 200) user.lines.set(productId, has + 1);
      }
    } else if (roll < 0.57 && own.length > 0) {
      const productId = pick(own);
      const has = user.lines.get(productId)!;
      const change = has >= MAX_PER_LINE ? -1 : Math.random() < 0.5 ? 1 : -1;
      const { status } = await api(
        "change quantity",
        "PATCH",
        `/api/carts/${user.cartId}/quantity`,
        {
          ...auth,
          body: { productId, change },
        },
      );
      // Minus at 1 does nothing: a line never drops below one.
      if (status === 200) user.lines.set(productId, Math.max(1, has + change));
    } else if (roll < 0.62 && own.length > 0) {
      const productId = pick(own);
      const { status } = await api(
        "remove line",
        "DELETE",
        `/api/carts/${user.cartId}/product/${productId}`,
        auth,
      );
      if (status === 200) user.lines.delete(productId);
    } else if (roll < 0.82) {
      await api("read cart", "GET", `/api/carts/${user.cartId}`, auth);
    } else if (roll < 0.94) {
      await api("summary", "GET", `/api/sessions/${user.sessionId}/summary`, auth);
    } else {
      await api("my carts", "GET", "/api/carts", auth);
    }
    await sleep(Math.random() * 2 * THINK_MS);
  }
}
