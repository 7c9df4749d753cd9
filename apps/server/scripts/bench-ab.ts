/**
 * `npm run bench:ab -- <rounds> <seconds> <label>=<checkout>/apps/server/src/main.ts ...`: cached
 * reads of several versions measured in turn within the same minutes, for a machine whose speed
 * moves from one minute to the next. Each version's server runs side by side (the embedded
 * database, or PostgreSQL with AB_DATABASE_URL, a fresh database each); then every round measures
 * each route on each server in turn (reversed every other round), each right after the bare route,
 * with autocannon (50 connections, 1 s of warm-up, then `seconds`), and prints per route the
 * median server CPU time per answer (from /proc) and ratio to the bare route.
 * AB_ACCEPT sets the requests' Accept-Encoding (default: what Chrome sends); AB_ROUTES picks of
 * products, search, cart, summary.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { cpuMs } from "./bench-search.ts";
import { freshPostgresDatabase, signUp, startBare } from "./bench-support.ts";
import { startServer, stopProcess, type ServerProcess } from "./server-process.ts";

const [rounds = 3, seconds = 3] = process.argv.slice(2, 4).map(Number);
const versions = process.argv.slice(4).map((spec) => {
  const [label, main] = spec.split("=");
  if (!label || !main) throw new Error("bench:ab: name each version as <label>=<path of main.ts>");
  return { label, main };
});
const accept = process.env.AB_ACCEPT ?? "gzip, deflate, br, zstd";
const routes = (process.env.AB_ROUTES ?? "products,search,cart,summary").split(",");

interface Version {
  label: string;
  server: ServerProcess;
  headers: Record<string, string>;
  paths: Record<string, string>;
}

/** A signed-in user with a session whose cart holds ten lines, and the routes' paths. */
async function prepare(label: string, server: ServerProcess): Promise<Version> {
  const base = server.url;
  const { token } = await signUp(base);
  const headers = { authorization: `Bearer ${token}`, "accept-encoding": accept };
  const post = (url: string, body: object) =>
    fetch(`${base}${url}`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const created = await post("/api/sessions", {
    sessionName: "Bench",
    sessionType: "Friends",
    participants: "3+",
  });
  const { session } = (await created.json()) as { session: { _id: string; cartId: string } };
  const listed = await fetch(`${base}/api/products`, { headers });
  const { products } = (await listed.json()) as {
    products: Array<{ _id: string; stock: number }>;
  };
  for (const p of products.filter((p) => p.stock >= 5).slice(0, 10)) {
    await post(`/api/carts/${session.cartId}/product`, { productId: p._id, quantity: 2 });
  }
  const paths = {
    products: "/api/products",
    search: "/api/products?q=a&category=Electronics&category=Beauty&sort=price_asc",
    cart: `/api/carts/${session.cartId}`,
    summary: `/api/sessions/${session._id}/summary`,
  };
  return { label, server, headers, paths };
}

/** Answers per second and the process's CPU ms per answer (the warm-up's not counted). */
async function measure(url: string, headers: Record<string, string>, pid: number) {
  await autocannon({ url, connections: 50, duration: 1, headers });
  const before = await cpuMs(pid);
  const result = await autocannon({ url, connections: 50, duration: seconds, headers });
  const cpu = (await cpuMs(pid)) - before;
  if (result.non2xx || result.errors) throw new Error(`${url}: answers that were not 2xx`);
  return { rps: result.requests.average, cpu: cpu / result.requests.total };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const bare = await startBare();
const started: Version[] = [];
const drops: Array<() => Promise<void>> = [];
try {
  for (const { label, main } of versions) {
    const env: Record<string, string> = {
      DATA_DIR: await fs.mkdtemp(path.join(os.tmpdir(), `cartner-ab-${label}-`)),
    };
    if (process.env.AB_DATABASE_URL) {
      const fresh = await freshPostgresDatabase(process.env.AB_DATABASE_URL, "cartner_ab");
      env.DATABASE_URL = fresh.url;
      drops.push(fresh.drop);
    }
    const server = await startServer({ env, inheritEnv: true, output: "show", main });
    started.push(await prepare(label, server));
  }
  const figures = new Map<string, Array<{ cpu: number; ratio: number }>>();
  for (let round = 0; round < rounds; round++) {
    for (const route of routes) {
      for (const version of round % 2 ? [...started].reverse() : started) {
        const yardstick = await measure(bare.url, {}, bare.child.pid!);
        const url = `${version.server.url}${version.paths[route]}`;
        const { rps, cpu } = await measure(url, version.headers, version.server.child.pid!);
        const key = `${route} ${version.label}`;
        figures.set(key, [...(figures.get(key) ?? []), { cpu, ratio: rps / yardstick.rps }]);
        console.error(
          `${new Date().toISOString().slice(11, 19)} ${key}: ${Math.round(rps)} req/s, ${cpu.toFixed(3)} ms CPU per answer; bare ${Math.round(yardstick.rps)} req/s, ${yardstick.cpu.toFixed(3)} ms`,
        );
      }
    }
  }
  const database = process.env.AB_DATABASE_URL ? "PostgreSQL" : "embedded";
  console.info(`\n${database}, ${rounds} rounds of ${seconds} s, Accept-Encoding "${accept}"\n`);
  console.info(
    `| route | ${started.map((v) => `${v.label}: CPU ms per answer, median (each round) | ratio to bare, median`).join(" | ")} |`,
  );
  console.info(`|---|${started.map(() => "---|---|").join("")}`);
  for (const route of routes) {
    const cells = started.map((version) => {
      const runs = figures.get(`${route} ${version.label}`) ?? [];
      const cpu = runs.map((run) => run.cpu);
      const each = cpu.map((value) => value.toFixed(3)).join(", ");
      const ratio = median(runs.map((run) => run.ratio));
      return `${median(cpu).toFixed(3)} (${each}) | ${Math.round(ratio * 100)} %`;
    });
    console.info(`| ${route} | ${cells.join(" | ")} |`);
  }
} finally {
  await Promise.all([...started.map((v) => v.server.stop()), stopProcess(bare.child)]);
  for (const drop of drops) await drop();
}
