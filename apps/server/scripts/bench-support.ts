/** What the bench scripts share: starting the real server as its own process, and accounts. */
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { freePort } from "./server-process.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
export const BENCH_PASSWORD = "bench-marker-2026";

/** Runs another script of this folder with Node (the bare route server of bench). */
export function start(file: string, args: string[]) {
  return spawn(process.execPath, [path.join(here, file), ...args], {
    env: process.env,
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/**
 * Node options for a benchmarked server: BENCH_NODE_ARGS, e.g. "--cpu-prof
 * --cpu-prof-dir=/tmp/prof" to profile it under load (Node refuses --cpu-prof in NODE_OPTIONS),
 * and with `gcOnSignal` a full garbage collection on SIGWINCH (settledRssMb).
 */
export function benchNodeArgs(options: { gcOnSignal?: boolean } = {}): string[] {
  const args = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  if (options.gcOnSignal) args.push("--expose-gc", "--import", path.join(here, "gc-on-signal.ts"));
  return args;
}

/**
 * The bare Fastify route, the yardstick each route is measured next to, started on a free port and
 * answering, so that benches running side by side never measure each other's servers.
 */
export async function startBare(): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort(3400, 3499);
  const child = start("bare-server.ts", [String(port)]);
  const url = `http://127.0.0.1:${port}/bare`;
  await waitFor(url, child);
  return { child, url };
}

export async function waitFor(url: string, child: ChildProcess) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited`);
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not come up`);
}

export async function postJson<T = Record<string, string>>(
  base: string,
  p: string,
  body: object,
  token?: string,
): Promise<T> {
  const res = await fetch(`${base}${p}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Registers and verifies an account through the dev outbox; returns its id and token. */
export async function signUp(base: string, name = "Bench") {
  const email = `bench.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`;
  const { userId } = await postJson(base, "/api/auth/register", {
    name,
    email,
    password: BENCH_PASSWORD,
  });
  const code = await mailboxCode(base, email);
  const { token } = await postJson(base, "/api/auth/verify-otp", { userId, code });
  return { userId: userId!, token: token! };
}

/**
 * `count` orders of the signed-in person and a second one, each with a line of each: the second
 * says they paid on every order and the first confirms every other one, so the balances hold
 * settled and open shares. Answers the last order's id.
 */
export async function benchOrders(
  base: string,
  auth: Record<string, string>,
  products: Array<{ _id: string }>,
  count: number,
): Promise<string> {
  const other = await signUp(base, "Bench friend");
  const as = (token: string) => ({ ...auth, authorization: `Bearer ${token}` });
  const json = (headers: Record<string, string>) => ({
    ...headers,
    "content-type": "application/json",
  });
  const call = async (
    headers: Record<string, string>,
    method: string,
    path: string,
    body?: object,
  ) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: body ? json(headers) : headers,
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (!res.ok) throw new Error(`bench: ${method} ${path} answered ${res.status}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  let orderId = "";
  for (let i = 0; i < count; i++) {
    const { session } = (await call(auth, "POST", "/api/sessions", {
      sessionName: `Bench order ${i}`,
      sessionType: "Friends",
      participants: "2",
      passcode: "bench-42",
    })) as { session: { _id: string; sessionCode: string; cartId: string } };
    await call(as(other.token), "POST", "/api/sessions/join/code", {
      sessionCode: session.sessionCode,
      passcode: "bench-42",
    });
    await call(auth, "POST", `/api/sessions/approve/${session.sessionCode}`, {
      userId: other.userId,
    });
    for (const [headers, product] of [
      [auth, products[i % products.length]!],
      [as(other.token), products[(i + 1) % products.length]!],
    ] as const) {
      await call(headers, "POST", `/api/carts/${session.cartId}/product`, {
        productId: product._id,
      });
    }
    const { order } = (await call(auth, "POST", `/api/sessions/${session._id}/checkout`)) as {
      order: { _id: string };
    };
    orderId = order._id;
    await call(as(other.token), "POST", `/api/orders/${orderId}/paid`);
    if (i % 2 === 0) await call(auth, "POST", `/api/orders/${orderId}/confirm/${other.userId}`);
  }
  return orderId;
}

/** Runs `task` for each item with at most `limit` at a time. */
export async function inParallel<T, R>(
  items: T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Resident memory of a process in MB (Linux). */
export async function rssMb(pid: number): Promise<number> {
  const fs = await import("node:fs/promises");
  const status = await fs.readFile(`/proc/${pid}/status`, "utf8");
  return Number(status.match(/VmRSS:\s+(\d+)/)![1]) / 1024;
}

/**
 * RSS of a server started with `gcOnSignal`, right after two full garbage collections (the
 * second frees what the first's finalizers let go), so two readings differ by what is live.
 */
export async function settledRssMb(pid: number): Promise<number> {
  for (let i = 0; i < 2; i++) {
    process.kill(pid, "SIGWINCH");
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return rssMb(pid);
}

/** The p-th percentile (nearest rank) of values sorted in ascending order. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * A new, empty database on the PostgreSQL server of `adminUrl` (the server migrates it); `drop`
 * removes it. Used by the bench and soak scripts and the process tests.
 */
export async function freshPostgresDatabase(adminUrl: string, prefix = "cartner_bench") {
  const name = `${prefix}_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}

/** The code of the newest dev-outbox mail to `email` (the server runs without SMTP_URL). */
export async function mailboxCode(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/dev/mailbox`, { headers: { accept: "application/json" } });
  const { mails } = (await res.json()) as { mails: Array<{ to: string; text: string }> };
  const code = mails.find((m) => m.to === email)?.text.match(/Your code: (\d{6})/)?.[1];
  if (!code) throw new Error(`no code for ${email}`);
  return code;
}

/**
 * Caps a process at `cores` of CPU with a cgroup CPU quota, as if it ran on a host of that size;
 * needs root at the root of the cgroup tree (not inside a container's cgroup namespace). Uses
 * cgroup v1's cpu controller where it is mounted (this VM), else cgroup v2's cpu.max. Resolves
 * with a function that removes the cgroup once the process has exited.
 */
export async function capCpu(
  pid: number,
  cores: number,
  name: string,
): Promise<() => Promise<void>> {
  const period = 100_000;
  const quota = Math.max(1_000, Math.round(cores * period));
  const root = "/sys/fs/cgroup";
  const exists = (file: string) =>
    fs.access(file).then(
      () => true,
      () => false,
    );
  const v1 = await exists(`${root}/cpu/cpu.cfs_quota_us`);
  const dir = v1 ? `${root}/cpu/${name}` : `${root}/${name}`;
  const remove = () => fs.rmdir(dir).catch(() => undefined);
  // An interrupted run (Ctrl-C) leaves its empty cgroup behind; use it again.
  const make = () =>
    fs.mkdir(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
  try {
    if (v1) {
      await make();
      await fs.writeFile(`${dir}/cpu.cfs_period_us`, String(period));
      await fs.writeFile(`${dir}/cpu.cfs_quota_us`, String(quota));
    } else {
      // v2 hands the cpu controller to child groups only when the parent enables it.
      await fs.writeFile(`${root}/cgroup.subtree_control`, "+cpu");
      await make();
      await fs.writeFile(`${dir}/cpu.max`, `${quota} ${period}`);
    }
    await fs.writeFile(`${dir}/cgroup.procs`, String(pid));
  } catch (error) {
    await remove();
    throw new Error(
      `bench: cannot cap CPU with a cgroup at ${dir} (root at the cgroup root, cgroup v1's cpu controller or v2's cpu.max): ${String(error)}`,
    );
  }
  return remove;
}

/** Runs `run` against a fresh PostgreSQL database (freshPostgresDatabase), dropped afterwards. */
export async function withPostgresDatabase<T>(
  adminUrl: string,
  prefix: string,
  run: (url: string) => Promise<T>,
): Promise<T> {
  const fresh = await freshPostgresDatabase(adminUrl, prefix);
  try {
    return await run(fresh.url);
  } finally {
    await fresh.drop();
  }
}
