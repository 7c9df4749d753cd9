/**
 * The production server with the built web app, for the scripts that measure pages in Chromium
 * (perf:web, trace:web): builds the app when its dist is missing or stale, starts
 * `node apps/server/src/main.ts` on 127.0.0.1 with a fresh temporary DATA_DIR, and signs a new
 * user up through the dev outbox, as the end-to-end tests do.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  freePort,
  startServer as startServerProcess,
} from "../../apps/server/scripts/server-process.ts";

const root = path.resolve(import.meta.dirname, "../..");
const web = path.join(root, "apps/web");

/** Newest modification time under a directory (or of a file). */
function newestMtime(target: string): number {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(
    0,
    ...fs.readdirSync(target).map((entry) => newestMtime(path.join(target, entry))),
  );
}

function buildIfNeeded(name: string): void {
  const built = newestMtime(path.join(web, "dist/index.html"));
  const sources = Math.max(
    ...["src", "index.html", "public", "vite.config.ts"].map((p) => newestMtime(path.join(web, p))),
    newestMtime(path.join(root, "packages/contract/src")),
  );
  if (built > sources) return;
  console.info(`${name}: building the web app (dist is missing or stale)…`);
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`${name}: the build failed`);
}

async function postJson<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** Registers a user through the API and reads the code from the dev outbox, like the e2e tests. */
export async function signUp(origin: string) {
  const email = `perf.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.com`;
  const { userId } = await postJson<{ userId: string }>(`${origin}/api/auth/register`, {
    name: "Perf Tester",
    email,
    password: "plum-orchard-42",
  });
  const res = await fetch(`${origin}/dev/mailbox`, { headers: { accept: "application/json" } });
  const { mails } = (await res.json()) as { mails: Array<{ to: string; text: string }> };
  const code = mails.find((mail) => mail.to === email)?.text.match(/Your code: (\d{6})/)?.[1];
  if (!code) throw new Error("sign-up: no code in the dev outbox");
  return postJson<{ token: string; user: { _id: string; name: string; email: string } }>(
    `${origin}/api/auth/verify-otp`,
    { userId, code },
  );
}

/** An API call as a signed-in user; throws with the answer when it is not a 2xx. */
async function apiAs<T>(
  origin: string,
  token: string,
  method: "GET" | "POST",
  route: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${origin}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * An order `member` has a share of and still has to pay, built through the API as people would:
 * a second new user opens a Friends session, `member` joins it by code and is approved, each adds
 * products (three and two), and the creator checks out (the creator is the payee). Answers the
 * order's id, for /orders/:id.
 */
export async function placeOrder(origin: string, member: { token: string; user: { _id: string } }) {
  const creator = await signUp(origin);
  const passcode = "sesame-42";
  const { session } = await apiAs<{
    session: { _id: string; sessionCode: string; cartId: string };
  }>(origin, creator.token, "POST", "/api/sessions", {
    sessionName: "Weekend groceries",
    sessionType: "Friends",
    participants: "2",
    passcode,
  });
  await apiAs(origin, member.token, "POST", "/api/sessions/join/code", {
    sessionCode: session.sessionCode,
    passcode,
  });
  await apiAs(origin, creator.token, "POST", `/api/sessions/approve/${session.sessionCode}`, {
    userId: member.user._id,
  });
  const { products } = await apiAs<{ products: Array<{ _id: string; stock: number }> }>(
    origin,
    member.token,
    "GET",
    "/api/products",
  );
  const inStock = products.filter((product) => product.stock >= 10);
  if (inStock.length < 5) throw new Error("placeOrder: fewer than 5 products in stock");
  for (const [index, product] of inStock.slice(0, 5).entries()) {
    const who = index < 3 ? member : creator;
    await apiAs(origin, who.token, "POST", `/api/carts/${session.cartId}/product`, {
      productId: product._id,
      quantity: 1 + (index % 2),
    });
  }
  const { order } = await apiAs<{ order: { _id: string } }>(
    origin,
    creator.token,
    "POST",
    `/api/sessions/${session._id}/checkout`,
  );
  return order._id;
}

/**
 * Our own production server on a fresh DATA_DIR; `stop` ends it and removes the data. The port is
 * the environment variable `portEnv` when set, else a free one in `range`.
 */
export async function startWebServer(
  name: string,
  { portEnv, range }: { portEnv: string; range: [number, number] },
) {
  buildIfNeeded(name);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cartner-perf-"));
  const port = process.env[portEnv] ? Number(process.env[portEnv]) : await freePort(...range);
  const origin = `http://127.0.0.1:${port}`;
  const removeData = () => fs.rmSync(dataDir, { recursive: true, force: true });
  const server = await startServerProcess({
    port,
    // Empty is unset: an exported APP_ORIGIN (PUBLIC_URL's older name) must not contradict it.
    env: { DATA_DIR: dataDir, PUBLIC_URL: origin, APP_ORIGIN: "" },
    inheritEnv: true,
    web: true,
    output: "show",
    timeoutMs: 60_000,
  }).catch((error: unknown) => {
    removeData();
    throw error;
  });
  const stop = async () => {
    await server.stop();
    removeData();
  };
  return { origin, stop };
}
