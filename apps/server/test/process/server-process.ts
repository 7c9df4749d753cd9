import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, freshPostgresDatabase, mailboxCode } from "../../scripts/bench-support.ts";

export { freePort, mailboxCode };

const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src/main.ts");

/** Whether nothing listens on this port of 127.0.0.1 right now. */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code (or signal name). */
  exited: Promise<number | string>;
  output: () => string;
}

/** Starts the real server (`node src/main.ts`) and waits until /api/conhealth answers. */
export async function startServer(
  env: Record<string, string>,
  port?: number,
): Promise<ServerProcess> {
  const p = port ?? (await freePort());
  const child = spawn(process.execPath, [main], {
    env: {
      PATH: process.env.PATH ?? "",
      HOST: "127.0.0.1",
      PORT: String(p),
      LOG_LEVEL: "warn",
      AUTH_RATE_LIMIT: "100000",
      RATE_LIMIT: "100000",
      WEB_DIST: "/nonexistent",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const url = `http://127.0.0.1:${p}`;
  // A first start creates the embedded database: seconds on a quiet machine, more in a busy CI.
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const res = await fetch(`${url}/api/conhealth`);
      if (res.ok) return { url, child, exited, output: () => output };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`server did not become healthy:\n${output}`);
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
  options: { body?: unknown; token?: string; timeoutMs?: number } = {},
): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
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
  return { status: res.status, body, ms: performance.now() - started };
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
