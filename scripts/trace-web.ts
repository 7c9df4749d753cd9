/**
 * `npm run trace:web`: what holds the main thread while a page first loads. Records a Chromium
 * performance trace (with V8's sampling profiler) of TRACE_RUNS (default 3) cold loads of
 * TRACE_PAGE (default /products; /orders/:id is an order of the user's built through the API;
 * signed in as a new user, measured as perf:web measures it: the
 * service worker has precached the app from /, then its worker, caches and IndexedDB are cleared
 * before each load) and prints, for each load, every task after the first contentful paint that
 * Lighthouse would count as long, with what it did (trace events by self time) and whose code ran
 * (profile samples by script file and function), and Lighthouse's blocking estimate.
 *
 * Lighthouse's mobile preset observes the load at full speed and multiplies each main-thread task
 * by 4 ("simulated" 4x CPU slowdown); a task counts as long above 50 ms after that, and Total
 * Blocking Time adds what each task lasts beyond 50 ms. TRACE_CPU=1 (the default) traces at full
 * speed like Lighthouse, and the estimate is sum(max(0, 4 x task - 50)) over the tasks after the
 * first paint; TRACE_CPU=4 slows the CPU down in the browser instead (DevTools' throttling: the
 * order in which chunks, data and renders arrive changes with it) and the tasks count as they are.
 * The estimate leaves out Lighthouse's network simulation, so it follows TBT, it is not TBT.
 *
 * TRACE_ORIGIN=http://host:port traces a running server (with the dev outbox) instead of starting
 * one like perf:web does (TRACE_PORT to choose its port); TRACE_DIR=dir keeps each trace as JSON,
 * for the Performance panel of Chromium's DevTools; TRACE_SETTLE_MS (default 5000) is how long a
 * load is traced after its load event. The build has no source maps: scripts show as their chunk
 * (ProductsPage-….js, react-….js) and minified function names.
 */
import fs from "node:fs";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import { chromiumPath, HEADLESS_FLAGS } from "./lib/chromium.ts";
import { evaluate, openTab } from "./lib/devtools.ts";
import { placeOrder, signUp, startWebServer } from "./lib/web-server.ts";

const PAGE = process.env.TRACE_PAGE ?? "/products";
const SIGNED_IN = PAGE !== "/" && PAGE !== "/login";
const RUNS = Math.max(1, Number(process.env.TRACE_RUNS ?? 3));
const CPU = Math.max(1, Number(process.env.TRACE_CPU ?? 1));
/** Lighthouse's slowdown still to apply to what was traced. */
const SCALE = 4 / CPU;
const SETTLE_MS = Number(process.env.TRACE_SETTLE_MS ?? 5000);
const CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "toplevel",
  "loading",
  "blink.user_timing",
  "v8.execute",
  "disabled-by-default-v8.cpu_profiler",
];

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  id?: string;
  args?: { data?: Record<string, unknown> } & Record<string, unknown>;
}

interface CallFrame {
  functionName: string;
  url: string;
}

/** A DevTools Protocol connection to one tab: `send` calls a method, `on` listens to an event. */
async function connectTab(port: number, url: string) {
  const { session, close } = await openTab(port, url);
  const on = <T>(method: string, listener: (params: T) => void) => {
    session.on(method, (params) => listener(params as T));
  };
  return { session, send: session.send, on, close };
}

type Tab = Awaited<ReturnType<typeof connectTab>>;

/** Runs `expression` in the tab's page, waiting while it has no JavaScript context yet. */
const evaluateIn = (tab: Tab, expression: string) => evaluate(tab.session, expression);

async function navigate(tab: Tab, url: string): Promise<void> {
  const loaded = new Promise<void>((resolve) => tab.on("Page.loadEventFired", () => resolve()));
  await tab.send("Page.navigate", { url });
  await loaded;
}

/** One traced load of `url`; the trace's events. */
async function traceLoad(tab: Tab, url: string): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  tab.on<{ value: TraceEvent[] }>("Tracing.dataCollected", ({ value }) => events.push(...value));
  const complete = new Promise<void>((resolve) =>
    tab.on("Tracing.tracingComplete", () => resolve()),
  );
  await tab.send("Tracing.start", {
    transferMode: "ReportEvents",
    traceConfig: { includedCategories: CATEGORIES, excludedCategories: ["*"] },
  });
  await navigate(tab, url);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  await tab.send("Tracing.end");
  await complete;
  return events;
}

const ms = (us: number) => us / 1000;
const file = (url: string) => (url ? (url.split("/").pop() ?? url).split("?")[0]! : "(native)");

/** The long tasks after the first contentful paint of the load of `pagePath`, explained. */
function analyse(events: TraceEvent[], pagePath: string) {
  const nav = events.findLast(
    (e) =>
      e.name === "navigationStart" &&
      String(e.args?.data?.documentLoaderURL ?? "").endsWith(pagePath),
  );
  if (!nav) throw new Error(`trace:web: no navigation to ${pagePath} in the trace`);
  const thread = events.filter((e) => e.pid === nav.pid && e.tid === nav.tid && e.ts >= nav.ts);
  const fcp = thread.find((e) => e.name === "firstContentfulPaint");
  const tasks: TraceEvent[] = [];
  for (const e of thread) {
    if (e.ph !== "X" || !/^(ThreadControllerImpl::)?RunTask$/.test(e.name)) continue;
    const last = tasks.at(-1);
    if (last && e.ts < last.ts + last.dur!) continue; // nested in the previous one
    tasks.push(e);
  }
  tasks.sort((a, b) => a.ts - b.ts);

  // The sampling profile of that thread: each sample's stack, leaf first.
  const nodes = new Map<number, { callFrame: CallFrame; parent?: number }>();
  const samples: Array<{ ts: number; node: number }> = [];
  const profiles = new Map<string, number>();
  for (const e of events) {
    if (e.name === "Profile" && e.pid === nav.pid && e.tid === nav.tid) {
      profiles.set(e.id!, Number(e.args?.data?.startTime));
    }
  }
  for (const e of events) {
    if (e.name !== "ProfileChunk" || !profiles.has(e.id!)) continue;
    const data = e.args!.data as {
      cpuProfile?: {
        nodes?: Array<{ id: number; parent?: number; callFrame: CallFrame }>;
        samples?: number[];
      };
      timeDeltas?: number[];
    };
    for (const node of data.cpuProfile?.nodes ?? []) nodes.set(node.id, node);
    let t = profiles.get(e.id!)!;
    (data.cpuProfile?.samples ?? []).forEach((node, i) => {
      t += data.timeDeltas?.[i] ?? 0;
      samples.push({ ts: t, node });
    });
    profiles.set(e.id!, t);
  }

  const after = fcp ? tasks.filter((task) => task.ts >= fcp.ts) : [];
  const long = after.filter((task) => SCALE * ms(task.dur!) > 50);
  const lines = long.map((task) => {
    const end = task.ts + task.dur!;
    // Trace events inside the task, by self time.
    const inside = thread
      .filter((e) => e.ph === "X" && e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end)
      .filter((e) => !/RunTask$/.test(e.name))
      .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
    const self = new Map<string, number>();
    const stack: TraceEvent[] = [];
    for (const e of inside) {
      while (stack.length && stack.at(-1)!.ts + stack.at(-1)!.dur! <= e.ts) stack.pop();
      const parent = stack.at(-1);
      if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - e.dur!);
      self.set(e.name, (self.get(e.name) ?? 0) + e.dur!);
      stack.push(e);
    }
    // Samples inside the task, by the innermost frame that has a script.
    const scripts = new Map<string, number>();
    const inTask = samples.filter((s) => s.ts >= task.ts && s.ts <= end);
    for (const sample of inTask) {
      let key = "";
      for (let id: number | undefined = sample.node; id !== undefined;) {
        const node = nodes.get(id);
        if (!node) break;
        if (node.callFrame.url) {
          key = `${file(node.callFrame.url)}:${node.callFrame.functionName || "(anonymous)"}`;
          break;
        }
        key ||= node.callFrame.functionName;
        id = node.parent;
      }
      if (key !== "(idle)" && key !== "(program)") scripts.set(key, (scripts.get(key) ?? 0) + 1);
    }
    const perSample = inTask.length ? ms(task.dur!) / inTask.length : 0;
    const top = <K>(map: Map<K, number>, scale: number) =>
      [...map]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .filter(([, v]) => v * scale >= 1)
        .map(([k, v]) => `${String(k)} ${(v * scale).toFixed(0)}`)
        .join(", ");
    return (
      `  ${ms(task.ts - nav.ts)
        .toFixed(0)
        .padStart(6)} ms  ${ms(task.dur!).toFixed(1).padStart(6)} ms` +
      `  [${top(self, 1 / 1000)}]  ${top(scripts, perSample)}`
    );
  });
  const blocking = after.reduce((sum, task) => sum + Math.max(0, SCALE * ms(task.dur!) - 50), 0);
  return { fcp: fcp ? ms(fcp.ts - nav.ts) : null, lines, blocking };
}

async function main(): Promise<void> {
  const external = process.env.TRACE_ORIGIN?.replace(/\/$/, "");
  const { origin, stop } = external
    ? { origin: external, stop: async () => {} }
    : await startWebServer("trace:web", { portEnv: "TRACE_PORT", range: [3440, 3459] });
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath(),
    chromeFlags: HEADLESS_FLAGS,
  });
  const keep = process.env.TRACE_DIR;
  if (keep) fs.mkdirSync(keep, { recursive: true });
  const estimates: number[] = [];
  try {
    const credentials = SIGNED_IN ? await signUp(origin) : null;
    // /orders/:id is an order of the signed-in user's, built through the API as perf:web builds it.
    const pagePath =
      PAGE === "/orders/:id" && credentials
        ? `/orders/${await placeOrder(origin, credentials)}`
        : PAGE;
    // As perf:web: / first, where the service worker installs and precaches the app.
    const warm = await connectTab(chrome.port, `${origin}/favicon.svg`);
    await warm.send("Page.enable");
    await navigate(warm, `${origin}/`);
    await evaluateIn(
      warm,
      "Promise.race([navigator.serviceWorker?.ready, new Promise((r) => setTimeout(r, 20000))])",
    );
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await warm.close();

    console.info(
      `trace:web: ${PAGE}${SIGNED_IN ? " signed in" : ""}, ${RUNS} cold load(s), CPU ${CPU === 1 ? "at full speed" : `slowed ${CPU}x`}; ` +
        `tasks after the first contentful paint longer than ${(50 / SCALE).toFixed(1)} ms (50 ms in Lighthouse's mobile simulation)`,
    );
    for (let run = 1; run <= RUNS; run++) {
      const tab = await connectTab(chrome.port, `${origin}/favicon.svg`);
      try {
        await tab.send("Page.enable");
        await tab.send("Storage.clearDataForOrigin", {
          origin,
          storageTypes: SIGNED_IN ? "service_workers,cache_storage,indexeddb" : "all",
        });
        if (credentials) {
          await evaluateIn(
            tab,
            `localStorage.setItem("token", ${JSON.stringify(credentials.token)});` +
              `localStorage.setItem("user", ${JSON.stringify(JSON.stringify(credentials.user))});`,
          );
        }
        await tab.send("Emulation.setDeviceMetricsOverride", {
          width: 412,
          height: 823,
          deviceScaleFactor: 1.75,
          mobile: true,
        });
        if (CPU > 1) await tab.send("Emulation.setCPUThrottlingRate", { rate: CPU });
        const events = await traceLoad(tab, `${origin}${pagePath}`);
        if (keep) {
          fs.writeFileSync(
            path.join(keep, `trace-${run}.json`),
            JSON.stringify({ traceEvents: events }),
          );
        }
        const { fcp, lines, blocking } = analyse(events, pagePath);
        estimates.push(blocking);
        console.info(
          `\nrun ${run}: first contentful paint at ${fcp?.toFixed(0) ?? "?"} ms; ` +
            `blocking estimate ${blocking.toFixed(0)} ms; long tasks (start, duration, [events ms], scripts ms):`,
        );
        for (const line of lines) console.info(line);
      } finally {
        await tab.close();
      }
    }
    const sorted = [...estimates].sort((a, b) => a - b);
    console.info(
      `\nblocking estimate per run: ${estimates.map((e) => e.toFixed(0)).join(", ")} ms; ` +
        `median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms` +
        (keep ? `; traces in ${keep}` : ""),
    );
  } finally {
    chrome.kill();
    await stop();
  }
}

await main();
