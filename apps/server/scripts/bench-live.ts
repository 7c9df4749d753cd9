/**
 * `npm run bench:live`: live fan-out on one instance (the embedded default). LIVE_MEMBERS members
 * (default 1,000) in sessions of LIVE_SESSION_SIZE (default 10) keep a socket open each; for
 * LIVE_SECONDS (default 20) members change their carts at LIVE_RATE changes per second (default
 * 20), and every member of the session times the change's event. A change's time starts when its
 * request is sent, so it includes the write itself. Then LIVE_EXTRA_SOCKETS (default 15,000; mind
 * `ulimit -n` and the ~28,000 local ports of one loopback address) more
 * sockets are opened to see what a socket costs in memory, and how many fit in 1 GB; memory is read
 * after full garbage collections (gc-on-signal.ts), so it is what the server holds.
 * BENCH_DATABASE_URL runs it on PostgreSQL instead (a fresh database it creates there and drops).
 * LIVE_INSTANCES=2 (with BENCH_DATABASE_URL) starts two instances on that database: members'
 * sockets and the changes alternate between them, so half of every change's deliveries cross from
 * one instance to the other over PostgreSQL's NOTIFY. The extra sockets and the memory figures
 * are the first instance's.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { LIVE_MAX_PENDING_PER_ADDRESS, type LiveServerMessage } from "@cartner/contract";
import { WebSocket } from "ws";
import { loadConfig } from "../src/config.ts";
import {
  benchNodeArgs,
  freshPostgresDatabase,
  inParallel,
  percentile,
  postJson,
  settledRssMb,
  signUp,
} from "./bench-support.ts";
import { startServer } from "./server-process.ts";

function settings() {
  // Only bench knobs here; the server itself is configured by its config module.
  const n = (value: string | undefined, fallback: number) => Number(value ?? fallback);
  return {
    members: n(process.env.LIVE_MEMBERS, 1000),
    sessionSize: n(process.env.LIVE_SESSION_SIZE, 10),
    seconds: n(process.env.LIVE_SECONDS, 20),
    rate: n(process.env.LIVE_RATE, 20),
    extraSockets: n(process.env.LIVE_EXTRA_SOCKETS, 15000),
    instances: n(process.env.LIVE_INSTANCES, 1),
    databaseUrl: process.env.BENCH_DATABASE_URL,
  };
}

interface Member {
  userId: string;
  token: string;
  socket?: WebSocket;
}

interface Session {
  cartId: string;
  members: Member[];
  productIds: string[];
}

/** Opens a live socket, signs it in and resolves once the server answered ready. */
function connect(wsUrl: string, token: string, onEvent: (m: LiveServerMessage) => void) {
  return new Promise<WebSocket>((resolve, reject) => {
    const socket = new WebSocket(wsUrl);
    socket.once("open", () => socket.send(JSON.stringify({ type: "auth", token })));
    socket.once("error", reject);
    socket.on("close", (code) => reject(new Error(`closed ${code} before ready`)));
    socket.on("message", (data) => {
      const message = JSON.parse(String(data)) as LiveServerMessage;
      if (message.type === "ready") resolve(socket);
      else onEvent(message);
    });
  });
}

/**
 * Every socket is a file descriptor here and one more in the server. The soft limit (`ulimit -n`,
 * often 1,024 or 20,000) is raised for this process with prlimit(1) before anything opens; the
 * server, started after, inherits it. Raising it past the hard limit needs CAP_SYS_RESOURCE (root).
 */
function raiseDescriptorLimit(needed: number): void {
  const line = readFileSync("/proc/self/limits", "utf8")
    .split("\n")
    .find((l) => l.startsWith("Max open files"));
  const [soft, hard] = (line?.match(/\d+|unlimited/g) ?? []).map((v) =>
    v === "unlimited" ? Infinity : Number(v),
  );
  if (soft !== undefined && soft >= needed) return;
  const newHard = hard === Infinity ? "unlimited" : String(Math.max(needed, hard ?? needed));
  const result = spawnSync("prlimit", [`--pid=${process.pid}`, `--nofile=${needed}:${newHard}`], {
    stdio: "inherit",
  });
  if (result.status !== 0) {
    throw new Error(
      `bench:live: ${needed} descriptors needed, the limit is ${soft}; prlimit could not raise it ` +
        "(run as root, or lower LIVE_MEMBERS / LIVE_EXTRA_SOCKETS)",
    );
  }
  console.info(`bench:live: descriptor limit raised from ${soft} to ${needed}`);
}

async function main() {
  const s = settings();
  if (s.instances > 1 && !s.databaseUrl) {
    throw new Error("bench:live: LIVE_INSTANCES > 1 needs BENCH_DATABASE_URL (instances share it)");
  }
  loadConfig(); // fail early on a broken environment, as the server would
  // Members' and extra sockets, their HTTP setup connections, and some room.
  raiseDescriptorLimit(s.members + s.extraSockets + 2_000);
  const ports = Array.from({ length: s.instances }, (_, k) => 3197 + k);
  const bases = ports.map((port) => `http://127.0.0.1:${port}`);
  const wsUrls = ports.map((port) => `ws://127.0.0.1:${port}/api/live`);
  const base = bases[0]!;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-bench-live-"));
  const fresh = s.databaseUrl ? await freshPostgresDatabase(s.databaseUrl) : undefined;
  // One after the other: the first applies the migrations, the next finds them done.
  const servers: Awaited<ReturnType<typeof startServer>>[] = [];
  for (const port of ports) {
    servers.push(
      await startServer({
        port,
        env: { DATA_DIR: dataDir, ...(fresh ? { DATABASE_URL: fresh.url } : {}) },
        inheritEnv: true,
        output: "show",
        nodeArgs: benchNodeArgs({ gcOnSignal: true }),
      }),
    );
  }
  const server = servers[0]!;
  const sockets: WebSocket[] = [];
  try {
    const setupStarted = Date.now();
    const members: Member[] = await inParallel(
      Array.from({ length: s.members }, (_, i) => i),
      8,
      (i) => signUp(base, `Member ${i}`),
    );
    const { products } = (await (
      await fetch(`${base}/api/products`, {
        headers: { authorization: `Bearer ${members[0]!.token}` },
      })
    ).json()) as {
      products: Array<{ _id: string; stock: number }>;
    };
    const stocked = products.filter((p) => p.stock >= 20).map((p) => p._id);
    const groups = Array.from({ length: Math.ceil(s.members / s.sessionSize) }, (_, g) =>
      members.slice(g * s.sessionSize, (g + 1) * s.sessionSize),
    );
    const sessions: Session[] = await inParallel(groups, 4, async ([creator, ...others]) => {
      const { session } = await postJson<{ session: { cartId: string; sessionCode: string } }>(
        base,
        "/api/sessions",
        { sessionName: "Live bench", sessionType: "Friends", participants: "3+" },
        creator!.token,
      );
      for (const other of others) {
        await postJson(
          base,
          "/api/sessions/join/code",
          { sessionCode: session.sessionCode, passcode: "" },
          other.token,
        );
        await postJson(
          base,
          `/api/sessions/approve/${session.sessionCode}`,
          { userId: other.userId },
          creator!.token,
        );
      }
      return { cartId: session.cartId, members: [creator!, ...others], productIds: stocked };
    });

    // Arrival times of each change's event, per cart and version, at every member.
    const arrivals = new Map<string, number[]>();
    // Under the server's cap on sockets one address may have waiting to sign in (4429 beyond it).
    const connecting = Math.min(16, LIVE_MAX_PENDING_PER_ADDRESS);
    await inParallel(members, connecting, async (member) => {
      const wsUrl = wsUrls[members.indexOf(member) % wsUrls.length]!;
      member.socket = await connect(wsUrl, member.token, (event) => {
        if (event.type !== "cart.updated") return;
        const key = `${event.cartId} ${event.version}`;
        const list = arrivals.get(key) ?? [];
        list.push(performance.now());
        arrivals.set(key, list);
      });
      sockets.push(member.socket);
    });
    const setupSeconds = (Date.now() - setupStarted) / 1000;
    const rssConnected = await settledRssMb(server.child.pid!);

    // Changes at a steady rate, each by a random member of a random session: add, then remove.
    const changes: Array<{ key: string; sentAt: number; members: number }> = [];
    let failed = 0;
    const inFlight: Promise<void>[] = [];
    const total = s.seconds * s.rate;
    const began = performance.now();
    for (let i = 0; i < total; i++) {
      const due = began + (i * 1000) / s.rate;
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
      const session = sessions[Math.floor(Math.random() * sessions.length)]!;
      const member = session.members[Math.floor(Math.random() * session.members.length)]!;
      const productId = session.productIds[i % session.productIds.length]!;
      const sentAt = performance.now();
      inFlight.push(
        fetch(`${bases[i % bases.length]!}/api/carts/${session.cartId}/product`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${member.token}`,
          },
          body: JSON.stringify({ productId }),
        }).then(async (res) => {
          if (!res.ok) {
            failed++;
            if (failed <= 5) console.error(`bench: ${res.status} ${await res.text()}`);
            return;
          }
          const { cart } = (await res.json()) as { cart: { version: number } };
          changes.push({
            key: `${session.cartId} ${cart.version}`,
            sentAt,
            members: session.members.length,
          });
        }),
      );
    }
    await Promise.all(inFlight);
    await new Promise((r) => setTimeout(r, 1000)); // the last events' deliveries

    // Changes to one cart that share a batch (decision 012) answer, and announce, the same
    // version: each still sends its event, so a version's members hear it once per change. Their
    // latencies count from the earliest of them (an overstatement, never an understatement).
    const byKey = new Map<string, { count: number; members: number; sentAt: number }>();
    for (const change of changes) {
      const group = byKey.get(change.key);
      if (group) {
        group.count += 1;
        group.sentAt = Math.min(group.sentAt, change.sentAt);
      } else byKey.set(change.key, { count: 1, members: change.members, sentAt: change.sentAt });
    }
    const latencies: number[] = [];
    let missing = 0;
    for (const [key, group] of byKey) {
      const times = arrivals.get(key) ?? [];
      missing += group.count * group.members - times.length;
      for (const t of times) latencies.push(t - group.sentAt);
    }
    latencies.sort((a, b) => a - b);

    // What a socket costs: open more (signed in as the members, as more tabs would be).
    const rssBefore = await settledRssMb(server.child.pid!);
    await inParallel(
      Array.from({ length: s.extraSockets }, (_, i) => members[i % members.length]!),
      connecting,
      async (member) => sockets.push(await connect(wsUrls[0]!, member.token, () => {})),
    );
    const rssAfter = await settledRssMb(server.child.pid!);
    const perSocketKb = ((rssAfter - rssBefore) * 1024) / s.extraSockets;
    // The headroom left at rssBefore, when only the members' sockets were open.
    const ownMembers = Math.ceil(s.members / s.instances);
    const fitIn1Gb = Math.floor(((1024 - rssBefore) * 1024) / perSocketKb) + ownMembers;

    const database = s.databaseUrl
      ? `PostgreSQL, ${s.instances} instance${s.instances > 1 ? "s" : ""}`
      : "embedded (PGlite)";
    console.info(
      `\n${os.cpus().length} cores, ${os.cpus()[0]?.model}, Node ${process.version}, ${database}; setup ${setupSeconds.toFixed(0)} s\n`,
    );
    console.info("| figure | value |\n|---|---|");
    const row = (name: string, value: string) => console.info(`| ${name} | ${value} |`);
    row("connected members (sockets)", String(s.members));
    row("sessions × members", `${sessions.length} × ${s.sessionSize}`);
    row("cart changes", `${changes.length} at ${s.rate}/s over ${s.seconds} s`);
    row("deliveries", `${latencies.length} (missing ${missing}, failed changes ${failed})`);
    row("change → delivery p50", `${percentile(latencies, 50).toFixed(1)} ms`);
    row("change → delivery p95", `${percentile(latencies, 95).toFixed(1)} ms`);
    row("change → delivery p99", `${percentile(latencies, 99).toFixed(1)} ms`);
    const first = s.instances > 1 ? "first instance's " : "";
    row(`${first}server RSS with its members' sockets`, `${rssConnected.toFixed(0)} MB`);
    row(
      `${first}server RSS with ${s.extraSockets} more sockets`,
      `${rssAfter.toFixed(0)} MB (${perSocketKb.toFixed(1)} KB per socket)`,
    );
    row(
      "sockets within 1 GB (extrapolated)",
      perSocketKb > 0
        ? `about ${Math.round(fitIn1Gb / 1000) * 1000}`
        : "not measurable (no growth)",
    );
    if (failed > 0 || missing > 0) {
      console.error("Some changes failed or some deliveries are missing: figures are not valid.");
      process.exitCode = 1;
    }
  } finally {
    for (const socket of sockets) socket.terminate();
    for (const running of servers) await running.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
    await fresh?.drop();
  }
}

await main();
