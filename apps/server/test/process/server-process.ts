import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freshPostgresDatabase, mailboxCode } from "../../scripts/bench-support.ts";
import {
  freePort,
  startServer as startServerProcess,
  type ServerProcess,
} from "../../scripts/server-process.ts";

export { freePort, mailboxCode, type ServerProcess };

/** Starts the real server (`node src/main.ts`) with only this environment and waits for health. */
export function startServer(env: Record<string, string>, port?: number): Promise<ServerProcess> {
  return startServerProcess({ env, ...(port === undefined ? {} : { port }) });
}

export async function postJson(url: string, body: unknown, token?: string) {
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  ms: number;
}

/** One JSON API call; rejects only when the connection fails or `timeoutMs` passes. */
export async function call(
  base: string,
  method: string,
  url: string,
  options: {
    body?: unknown;
    token?: string;
    timeoutMs?: number;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer & { headers: Headers }> {
  const started = performance.now();
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: res.status, body, ms: performance.now() - started, headers: res.headers };
}

/** Registers and verifies an account through the dev outbox; returns its id and token. */
export async function signUp(base: string, name: string, email: string) {
  const reg = await postJson(`${base}/api/auth/register`, { name, email, password: PASSWORD });
  if (reg.status !== 201) throw new Error(`register ${email}: ${reg.status}`);
  const code = await mailboxCode(base, email);
  const verified = await postJson(`${base}/api/auth/verify-otp`, { userId: reg.body.userId, code });
  if (verified.status !== 200) throw new Error(`verify ${email}: ${verified.status}`);
  return { userId: reg.body.userId as string, token: verified.body.token as string, email };
}

export const PASSWORD = "plum-orchard-42";

/**
 * A session whose creator is the first of `people` and every other one an approved participant.
 * Returns the session and cart ids and some products with enough stock for `perLine` of each per
 * member.
 */
export async function sharedCart(
  base: string,
  people: Array<{ userId: string; token: string }>,
  options: { products: number; perLine: number },
) {
  const [creator, ...others] = people;
  const created = await call(base, "POST", "/api/sessions", {
    token: creator!.token,
    body: {
      sessionName: "Crash test",
      sessionType: "Friends",
      participants: "3+",
      passcode: "tulip",
    },
  });
  if (created.status !== 201) throw new Error(`create session: ${created.status}`);
  const session = created.body.session as { _id: string; cartId: string; sessionCode: string };
  for (const person of others) {
    const join = await call(base, "POST", "/api/sessions/join/code", {
      token: person.token,
      body: { sessionCode: session.sessionCode, passcode: "tulip" },
    });
    if (join.status !== 202) throw new Error(`join: ${join.status}`);
    const ok = await call(base, "POST", `/api/sessions/approve/${session.sessionCode}`, {
      token: creator!.token,
      body: { userId: person.userId },
    });
    if (ok.status !== 200) throw new Error(`approve: ${ok.status}`);
  }
  const list = await call(base, "GET", "/api/products", { token: creator!.token });
  const products = (list.body.products as Array<{ _id: string; price: number; stock: number }>)
    .filter((p) => p.stock >= options.perLine * people.length)
    .slice(0, options.products);
  if (products.length < options.products) throw new Error("not enough products in stock");
  return { sessionId: session._id, cartId: session.cartId, products };
}

/** A fresh, empty database on a PostgreSQL server (the server migrates it); `drop` removes it. */
export const createPostgresDatabase = (adminUrl: string, prefix = "cartner_test_proc") =>
  freshPostgresDatabase(adminUrl, prefix);

/** Polls `read` every 100 ms until `ok` holds; rejects after `timeoutMs` with the last value. */
export async function waitUntil<T>(
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`not within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** PUT /api/sessions/:id/deadline (the creator's); answers the session. */
export async function setDeadline(
  base: string,
  token: string,
  sessionId: string,
  body: { closesAt: string; remindAt?: number[]; autoCheckout?: boolean } | null,
) {
  const res = await call(base, "PUT", `/api/sessions/${sessionId}/deadline`, { token, body });
  if (res.status !== 200)
    throw new Error(`set deadline: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.session as { deadline: { closesAt: string; locked: boolean } | null };
}

/** The session's activity log, oldest first (up to 200 entries). */
export async function activityOf(base: string, token: string, sessionId: string) {
  const res = await call(base, "GET", `/api/sessions/${sessionId}/activity?limit=200`, { token });
  if (res.status !== 200) throw new Error(`activity: ${res.status}`);
  return res.body.events as Array<{ seq: number; type: string; [key: string]: unknown }>;
}

/**
 * A process test's servers and data: `backend()` makes a DATA_DIR (and, on PostgreSQL, a database
 * of its own), `start()` runs a server on it; `cleanup()` (after each test) kills every server and
 * removes what was made, last made first.
 */
export function serverFixture(dirPrefix: string, onPostgres: boolean) {
  const cleanups: Array<() => Promise<unknown>> = [];
  return {
    async cleanup() {
      for (const step of cleanups.splice(0).reverse()) await step().catch(() => {});
    },
    async backend(): Promise<Record<string, string>> {
      // On PostgreSQL too: the generated JWT secret lives in DATA_DIR (never the working directory).
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), dirPrefix));
      cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
      if (onPostgres) {
        const database = await createPostgresDatabase(process.env.TEST_DATABASE_URL!);
        cleanups.push(database.drop);
        return { DATA_DIR: dir, DATABASE_URL: database.url };
      }
      return { DATA_DIR: dir };
    },
    async start(env: Record<string, string>): Promise<ServerProcess> {
      const server = await startServer(env);
      cleanups.push(async () => {
        server.child.kill("SIGKILL");
        await server.exited;
      });
      return server;
    },
  };
}
