/**
 * The one way the repo starts the real server as a child process (`node src/main.ts`), for the
 * process tests, bench, bench:live, soak, measure:startup and perf:web: spawn with an
 * environment, wait until /api/conhealth answers, keep or show its output, stop it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const MAIN = path.join(here, "../src/main.ts");

/**
 * Node's options for the server, the same as `npm run serve` gives it: half of V8's young
 * generation at most 16 MB, not the 64 MB V8 picks on a machine with this much memory and then
 * keeps resident (about 100 MB of RSS); writes and reads measure the same (decision 059).
 */
export const SERVE_NODE_ARGS = ["--max-semi-space-size=16"];

export interface StartOptions {
  /** Another checkout's src/main.ts (the upgrade fixture runs an earlier release); default ours. */
  main?: string;
  /** Added over the defaults below (PORT, HOST, quiet logs, rate limits out of the way). */
  env?: Record<string, string>;
  /** Default: a free port of 3300-3399. */
  port?: number;
  /** Node options for the server only, e.g. --cpu-prof or --expose-gc. */
  nodeArgs?: string[];
  /**
   * "keep": the output is captured (last 20,000 characters, `output()`), for tests and the soak;
   * "show": the server's stderr goes to ours, for the benchmarks; "none": nothing.
   */
  output?: "keep" | "show" | "none";
  /** Each chunk of output as it arrives (with "keep"), e.g. into a log file. */
  onOutput?: (chunk: Buffer) => void;
  /**
   * The whole environment of this process (a script run from the shell), or only PATH (tests,
   * the soak: nothing leaks in from the shell, such as its DATABASE_URL).
   */
  inheritEnv?: boolean;
  /** How long the first /api/conhealth may take (a first start creates the database). */
  timeoutMs?: number;
  /** Serve the built web app too (measure:startup, perf:web); the API alone otherwise. */
  web?: boolean;
}

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Milliseconds from spawn to the first healthy /api/conhealth. */
  healthyAfterMs: number;
  /** Resolves with the exit code (or signal name). */
  exited: Promise<number | string>;
  output: () => string;
  /** SIGTERM, SIGKILL after 15 s; resolves once the process is gone. */
  stop: () => Promise<void>;
}

/** The environment of a server under test or load: quiet, without per-client rate limits. */
export const quietServerEnv = (port: number) => ({
  PORT: String(port),
  HOST: "127.0.0.1",
  LOG_LEVEL: "warn",
  RATE_LIMIT: "100000000",
  AUTH_RATE_LIMIT: "100000000",
});

export async function startServer(options: StartOptions = {}): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const base = options.inheritEnv ? { ...process.env } : { PATH: process.env.PATH ?? "" };
  const mode = options.output ?? "keep";
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [...SERVE_NODE_ARGS, ...(options.nodeArgs ?? []), options.main ?? MAIN],
    {
      env: {
        ...base,
        ...quietServerEnv(port),
        ...(options.web ? {} : { WEB_DIST: "/nonexistent" }),
        ...options.env,
      },
      stdio: [
        "ignore",
        mode === "keep" ? "pipe" : "ignore",
        mode === "none" ? "ignore" : mode === "show" ? "inherit" : "pipe",
      ],
    },
  );
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
    options.onOutput?.(chunk);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const url = `http://127.0.0.1:${port}`;
  const stop = () => stopProcess(child);
  const deadline = started + (options.timeoutMs ?? 90_000);
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      if ((await fetch(`${url}/api/conhealth`)).ok) {
        const healthyAfterMs = performance.now() - started;
        return { url, port, child, healthyAfterMs, exited, output: () => output, stop };
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  child.kill("SIGKILL");
  throw new Error(`server did not become healthy:\n${output}`);
}

/** Stops a child process (SIGTERM, SIGKILL after 15 s); returns at once if it has already exited. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Whether nothing listens on this port of 127.0.0.1 right now. */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** A free port in the range, tried from a random start so parallel runs rarely collide. */
export async function freePort(from = 3300, to = 3399): Promise<number> {
  const span = to - from + 1;
  const offset = Math.floor(Math.random() * span);
  for (let i = 0; i < span; i++) {
    const port = from + ((offset + i) % span);
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port in ${from}-${to}`);
}
