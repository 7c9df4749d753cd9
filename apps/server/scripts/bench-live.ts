/**
 * `npm run bench:live`: live fan-out on one instance (the embedded default). LIVE_MEMBERS members
 * (default 1,000) in sessions of LIVE_SESSION_SIZE (default 10) keep a socket open each; for
 * LIVE_SECONDS (default 20) members change their carts at LIVE_RATE changes per second (default
 * 20), and every member of the session times the change's event. A change's time starts when its
 * request is sent, so it includes the write itself. Then LIVE_EXTRA_SOCKETS (default 15,000; mind
 * `ulimit -n` and the ~28,000 local ports of one loopback address) more
 * sockets are opened to see what a socket costs in memory, and how many fit in 1 GB; memory is read
 * after full garbage collections (gc-on-signal.ts), so it is what the server holds, twice on each
 * side, and a growth within the readings' noise is reported as not measurable. The members, their
 * devices and sessions are written into the database before the server starts (seedSessions).
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
import { sql } from "drizzle-orm";
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/client.ts";
import { createTokenService } from "../src/features/auth/tokens.ts";
import { newSessionCode } from "../src/features/sessions/codes.ts";
import { systemClock } from "../src/lib/clock.ts";
import { loadSecrets } from "../src/lib/secrets.ts";
import {
  benchNodeArgs,
  freshPostgresDatabase,
  inParallel,
  percentile,
  settledRssMb,
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

/**
 * The members, their signed-in devices and their sessions (a creator and participants, an empty
 * cart each), written straight into the database before the server starts, and a token for each
 * member signed with the key the server will use (the secret it reads from DATA_DIR): signing up
 * ten thousand people through the API (a password hash and a code each) took 545 s and measured
 * nothing. The server migrates nothing more when it starts; it seeds its catalog as usual.
 */
async function seedSessions(
  where: { dataDir: string; databaseUrl: string | undefined },
  count: number,
  size: number,
): Promise<Session[]> {
  const database = await openDatabase(where);
  try {
    const run = <T>(query: ReturnType<typeof sql>) => database.rows<T>(query);
    const people = await run<{ userId: string; sid: string }>(sql`
      with made as (
        insert into users (name, email, password_hash, email_verified_at)
        select 'Member ' || i, 'live.' || i || '@bench.example', 'bench: no password', now()
        from generate_series(0, ${count - 1}) i
        returning id, name)
      insert into auth_sessions (user_id)
      select id from made order by (substring(name from 8))::int
      returning user_id as "userId", id as sid`);
    // One session per group: the group's first member creates it, the others participate.
    const groups = Array.from({ length: Math.ceil(count / size) }, (_, g) =>
      people.slice(g * size, (g + 1) * size),
    );
    const codes = new Set<string>();
    while (codes.size < groups.length) codes.add(newSessionCode());
    const codeList = [...codes];
    const made = await run<{ sessionId: string; cartId: string; creatorId: string }>(sql`
      with rows as (
        select * from unnest(
          array[${sql.join(
            groups.map((g) => sql`${g[0]!.userId}`),
            sql`, `,
          )}]::uuid[],
          array[${sql.join(
            codeList.map((c) => sql`${c}`),
            sql`, `,
          )}]::text[]) as r(creator_id, code)),
      made as (
        insert into sessions (name, type, participants, code, creator_id)
        select 'Live bench', 'Friends', '3+', code, creator_id from rows
        returning id, creator_id)
      insert into carts (session_id) select id from made
      returning session_id as "sessionId", id as "cartId",
        (select creator_id from made where made.id = carts.session_id) as "creatorId"`);
    const byCreator = new Map(made.map((m) => [m.creatorId, m]));
    const memberRows = groups.flatMap((group) =>
      group.map((person, k) => ({
        sessionId: byCreator.get(group[0]!.userId)!.sessionId,
        userId: person.userId,
        role: k === 0 ? "creator" : "participant",
      })),
    );
    for (let i = 0; i < memberRows.length; i += 5000) {
      const chunk = memberRows.slice(i, i + 5000);
      await run(
        sql`insert into session_members (session_id, user_id, role) values ${sql.join(
          chunk.map((m) => sql`(${m.sessionId}::uuid, ${m.userId}::uuid, ${m.role})`),
          sql`, `,
        )}`,
      );
    }
    const { jwtKey } = await loadSecrets(undefined, where.dataDir);
    const tokens = createTokenService(jwtKey, systemClock);
    const signed: Member[] = await Promise.all(
      people.map(async (p) => ({ userId: p.userId, token: await tokens.sign(p) })),
    );
    const memberOf = new Map(signed.map((m) => [m.userId, m]));
    return groups.map((group) => ({
      cartId: byCreator.get(group[0]!.userId)!.cartId,
      members: group.map((p) => memberOf.get(p.userId)!),
      productIds: [],
    }));
  } finally {
    await database.close();
  }
}

async function main() {
  const s = settings();
  if (s.instances > 1 && !s.databaseUrl) {
    throw new Error("bench:live: LIVE_INSTANCES > 1 needs BENCH_DATABASE_URL (instances share it)");
  }
  loadConfig(); // fail early on a broken environment, as the server would
  // Members' and extra sockets, their HTTP setup connections, and some room.
  raiseDescriptorLimit(s.members + s.extraSockets + 2_000);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-bench-live-"));
  const fresh = s.databaseUrl ? await freshPostgresDatabase(s.databaseUrl) : undefined;
  const setupStarted = Date.now();
  const sessions = await seedSessions(
    { dataDir, databaseUrl: fresh?.url },
    s.members,
    s.sessionSize,
  );
  // One after the other (the database is already migrated by the seeding).
  const servers: Awaited<ReturnType<typeof startServer>>[] = [];
  for (let k = 0; k < s.instances; k++) {
    servers.push(
      // Each on a free port, so that benches running side by side never meet.
      await startServer({
        env: { DATA_DIR: dataDir, ...(fresh ? { DATABASE_URL: fresh.url } : {}) },
        inheritEnv: true,
        output: "show",
        nodeArgs: benchNodeArgs({ gcOnSignal: true }),
      }),
    );
  }
  const server = servers[0]!;
  const bases = servers.map((instance) => instance.url);
  const wsUrls = servers.map((instance) => `ws://127.0.0.1:${instance.port}/api/live`);
  const base = bases[0]!;
  const sockets: WebSocket[] = [];
  try {
    const { products } = (await (
      await fetch(`${base}/api/products`, {
        headers: { authorization: `Bearer ${sessions[0]!.members[0]!.token}` },
      })
    ).json()) as {
      products: Array<{ _id: string; stock: number }>;
    };
    const stocked = products.filter((p) => p.stock >= 20).map((p) => p._id);
    for (const session of sessions) session.productIds = stocked;
    const members = sessions.flatMap((session) => session.members);

    // Arrival times of each change's event, per cart and version, at every member.
    const arrivals = new Map<string, number[]>();
    // Under the server's cap on sockets one address may have waiting to sign in (4429 beyond it).
    const connecting = Math.min(16, LIVE_MAX_PENDING_PER_ADDRESS);
    await inParallel(members, connecting, async (member) => {
      const wsUrl = wsUrls[sockets.length % wsUrls.length]!;
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

    // What a socket costs: open more (signed in as the members, as more tabs would be). Memory is
    // read twice after full collections on each side; the two readings' spread is the noise, and
    // a growth within three times it is no measurement at all.
    const settledTwice = async () => [
      await settledRssMb(server.child.pid!),
      await settledRssMb(server.child.pid!),
    ];
    const before = await settledTwice();
    await inParallel(
      Array.from({ length: s.extraSockets }, (_, i) => members[i % members.length]!),
      connecting,
      async (member) => sockets.push(await connect(wsUrls[0]!, member.token, () => {})),
    );
    const after = await settledTwice();
    const mean = (pair: number[]) => (pair[0]! + pair[1]!) / 2;
    const rssBefore = mean(before);
    const rssAfter = mean(after);
    const noiseMb = Math.max(Math.abs(before[0]! - before[1]!), Math.abs(after[0]! - after[1]!), 1);
    const measurable = rssAfter - rssBefore > 3 * noiseMb;
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
      measurable
        ? `${rssAfter.toFixed(0)} MB (${perSocketKb.toFixed(1)} KB per socket)`
        : `${rssAfter.toFixed(0)} MB (per socket: not measurable, ${(rssAfter - rssBefore).toFixed(0)} MB ` +
            `of growth within the readings' noise of ${noiseMb.toFixed(0)} MB; open more)`,
    );
    row(
      "sockets within 1 GB (extrapolated)",
      measurable ? `about ${Math.round(fitIn1Gb / 1000) * 1000}` : "not measurable",
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
