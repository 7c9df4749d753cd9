/**
 * `npm run bench:crowd`: a group's busiest minute. CROWD_MEMBERS (default 1,000) members of one
 * session each add a line to its one cart, then all change their quantity at once, CROWD_ROUNDS
 * times (+1, then -1, ...). Every answer must be 2xx: a busy cart answers later, never with an
 * error. Reports each phase's answers by status and the latency at p50/p95/p99/max. Runs on the
 * embedded database, or on PostgreSQL with BENCH_DATABASE_URL (a fresh database it drops after).
 * Exits 1 if any answer was not 2xx.
 */
import { loadConfig } from "../src/config.ts";
import {
  freshPostgresDatabase,
  inParallel,
  percentile,
  postJson,
  signUp,
} from "./bench-support.ts";
import { startServer } from "./server-process.ts";

const MEMBERS = Number(process.env.CROWD_MEMBERS ?? 1000);
const ROUNDS = Number(process.env.CROWD_ROUNDS ?? 2);
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
/** Invite links carry at most 100 uses. */
const USES_PER_LINK = 100;

loadConfig(); // fail early on a broken environment, as the server would
if (!Number.isInteger(MEMBERS) || MEMBERS < 1) throw new Error("CROWD_MEMBERS: a whole number");
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error("CROWD_ROUNDS: a whole number");

interface Answer {
  status: number;
  ms: number;
}

async function timed(url: string, init: RequestInit): Promise<Answer> {
  const started = performance.now();
  try {
    const res = await fetch(url, init);
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

function describe(phase: string, answers: Answer[], wallMs: number): boolean {
  const byStatus = new Map<number, number>();
  for (const a of answers) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
  const at = (p: number) => percentile(ms, p).toFixed(0);
  const statuses = [...byStatus].map(([s, n]) => `${s}: ${n}`).join(", ");
  console.info(
    `${phase}: ${answers.length} at once in ${wallMs.toFixed(0)} ms (${statuses}); ` +
      `p50 ${at(50)} ms, p95 ${at(95)} ms, p99 ${at(99)} ms, max ${ms.at(-1)!.toFixed(0)} ms`,
  );
  return answers.every((a) => a.status >= 200 && a.status < 300);
}

async function main() {
  const database = DATABASE_URL ? await freshPostgresDatabase(DATABASE_URL) : undefined;
  const server = await startServer({
    inheritEnv: true,
    output: "show",
    env: database ? { DATABASE_URL: database.url } : { DATA_DIR: "memory://" },
  });
  const base = server.url;
  let ok = true;
  try {
    console.info(
      `bench:crowd on ${database ? "PostgreSQL" : "the embedded database"}: ${MEMBERS} members`,
    );
    const creator = await signUp(base, "Crowd host");
    const { session } = await postJson<{ session: { _id: string; cartId: string } }>(
      base,
      "/api/sessions",
      { sessionName: "Crowd", sessionType: "Friends", participants: "3+" },
      creator.token,
    );
    const links: string[] = [];
    for (let i = 0; i < Math.ceil(MEMBERS / USES_PER_LINK); i++) {
      const { link } = await postJson<{ link: { token: string } }>(
        base,
        `/api/sessions/${session._id}/links`,
        { role: "participant", expiresInHours: 24, maxUses: USES_PER_LINK },
        creator.token,
      );
      links.push(link.token);
    }
    const signUpStarted = performance.now();
    const members = await inParallel(
      Array.from({ length: MEMBERS }, (_, i) => i),
      8,
      async (i) => {
        const member = await signUp(base, `Member ${i + 1}`);
        await postJson(
          base,
          `/api/invite/${links[Math.floor(i / USES_PER_LINK)]}/accept`,
          {},
          member.token,
        );
        return member;
      },
    );
    console.info(
      `  ${MEMBERS} members signed up and joined in ${((performance.now() - signUpStarted) / 1000).toFixed(0)} s`,
    );

    // Each member's own product, spread so that every product keeps stock for one more each.
    const { products } = (await (
      await fetch(`${base}/api/products?limit=100`, {
        headers: { authorization: `Bearer ${creator.token}` },
      })
    ).json()) as { products: Array<{ _id: string; stock: number }> };
    const slots = products.flatMap((p) => Array(Math.floor(p.stock / 2)).fill(p._id) as string[]);
    if (slots.length < MEMBERS)
      throw new Error(`bench:crowd: stock for ${slots.length} members only`);
    const productOf = (i: number) => slots[i]!;
    const cartUrl = `${base}/api/carts/${session.cartId}`;
    const headersOf = (token: string) => ({
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
    });

    const crowd = async (phase: string, request: (i: number) => [string, RequestInit]) => {
      const started = performance.now();
      const answers = await Promise.all(
        members.map((_, i) => {
          const [url, init] = request(i);
          return timed(url, init);
        }),
      );
      ok = describe(phase, answers, performance.now() - started) && ok;
    };
    await crowd("add a line", (i) => [
      `${cartUrl}/product`,
      {
        method: "POST",
        headers: headersOf(members[i]!.token),
        body: JSON.stringify({ productId: productOf(i) }),
      },
    ]);
    for (let round = 0; round < ROUNDS; round++) {
      const change = round % 2 === 0 ? 1 : -1;
      await crowd(`quantity ${change > 0 ? "+1" : "-1"}`, (i) => [
        `${cartUrl}/quantity`,
        {
          method: "PATCH",
          headers: headersOf(members[i]!.token),
          body: JSON.stringify({ productId: productOf(i), change }),
        },
      ]);
    }
    const cart = (await (
      await fetch(cartUrl, { headers: { authorization: `Bearer ${creator.token}` } })
    ).json()) as { cart: { products: unknown[]; itemCount: number } };
    const expected = MEMBERS * (ROUNDS % 2 === 0 ? 1 : 2);
    console.info(
      `  cart: ${cart.cart.products.length} lines, ${cart.cart.itemCount} items (expected ${MEMBERS} and ${expected})`,
    );
    ok = ok && cart.cart.products.length === MEMBERS && cart.cart.itemCount === expected;
  } finally {
    await server.stop();
    await database?.drop();
  }
  if (!ok) {
    console.error("bench:crowd: some answers were not 2xx, or the cart does not add up");
    process.exit(1);
  }
}

await main();
