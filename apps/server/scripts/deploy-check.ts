/**
 * `npm run deploy:check -- http://127.0.0.1:8080`: checks a deployment through its load balancer
 * (docs/deploy.md, "Walkthrough"): the health check, a sign-up through the development outbox, the
 * live socket upgraded through the balancer, and a cart change made by one request that reaches a
 * socket which, behind a balancer without sticky sessions, may well sit on another instance. Exits
 * 1 when a step fails. Needs the development outbox (no SMTP_URL, NODE_ENV not production).
 */
import type { LiveServerMessage } from "@cartner/contract";
import { WebSocket } from "ws";
import { postJson, signUp } from "./bench-support.ts";

const origin = (process.argv[2] ?? "http://127.0.0.1:8080").replace(/\/$/, "");

function step(name: string, ok: boolean, detail = ""): void {
  console.info(`${ok ? "ok  " : "FAIL"} ${name}${detail ? `: ${detail}` : ""}`);
  if (!ok) process.exitCode = 1;
}

const health = await fetch(`${origin}/api/conhealth`);
step("GET /api/conhealth", health.status === 200, `${health.status}`);

const ann = await signUp(origin, "Ann");
step("sign-up through the balancer", ann.token.length > 0);

const { session } = await postJson<{ session: { _id: string; cartId: string } }>(
  origin,
  "/api/sessions",
  { sessionName: "Deploy check", sessionType: "Solo", participants: "1" },
  ann.token,
);

// Several sockets, so that with least_conn or round robin they land on different instances.
const sockets = await Promise.all(
  Array.from({ length: 3 }, async () => {
    const socket = new WebSocket(`${origin.replace(/^http/, "ws")}/api/live`, { origin });
    const messages: LiveServerMessage[] = [];
    socket.on("message", (data) => messages.push(JSON.parse(String(data)) as LiveServerMessage));
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    socket.send(JSON.stringify({ type: "auth", token: ann.token }));
    return { socket, messages };
  }),
);
const until = async (test: () => boolean, ms: number) => {
  const started = Date.now();
  while (!test() && Date.now() - started < ms) await new Promise((r) => setTimeout(r, 20));
  return test();
};
step(
  "3 live sockets upgraded and signed in",
  await until(() => sockets.every((s) => s.messages.some((m) => m.type === "ready")), 5_000),
);

const products = (await (
  await fetch(`${origin}/api/products`, { headers: { authorization: `Bearer ${ann.token}` } })
).json()) as { products: Array<{ _id: string; stock: number }> };
const product = products.products.find((p) => p.stock > 0)!;
const sent = Date.now();
await postJson(
  origin,
  `/api/carts/${session.cartId}/product`,
  { productId: product._id },
  ann.token,
);
const heard = await until(
  () => sockets.every((s) => s.messages.some((m) => m.type === "cart.updated")),
  5_000,
);
step("a cart change reaches every socket", heard, `${Date.now() - sent} ms`);
for (const { socket } of sockets) socket.close();
