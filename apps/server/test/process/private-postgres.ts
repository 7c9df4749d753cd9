import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort } from "./server-process.ts";

/**
 * A throwaway PostgreSQL cluster of the test's own (initdb into a temp dir, its own port), so a
 * test may stop and start it without touching the shared PostgreSQL other tests use.
 */
export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** pg_ctl start, waiting until it accepts connections. */
  start(): Promise<void>;
  /** pg_ctl stop -m immediate: the postmaster and every backend go at once, no checkpoint. */
  stopImmediately(): Promise<void>;
  /** Stops it (if running) and removes its directory. Safe to call more than once. */
  destroy(): Promise<void>;
  log(): string;
}

const hasTools = (dir: string) =>
  ["initdb", "pg_ctl", "postgres"].every((tool) => fs.existsSync(path.join(dir, tool)));

/** PG_BIN, else the newest /usr/lib/postgresql/<version>/bin, else `pg_config --bindir`. */
export function findPostgresBin(): string | undefined {
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  try {
    const versions = fs
      .readdirSync("/usr/lib/postgresql")
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => `/usr/lib/postgresql/${v}/bin`));
  } catch {
    // not a Debian layout
  }
  try {
    candidates.push(execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim());
  } catch {
    // no pg_config on the PATH
  }
  return candidates.find(hasTools);
}

/**
 * initdb and postgres refuse to run as root: as root, run them as the `postgres` user (which owns
 * the cluster's directory); as anyone else, run them directly.
 */
function runAs(): { prefix: string[]; uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return { prefix: [] };
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }));
  return { prefix: ["runuser", "-u", "postgres", "--"], uid: id("-u"), gid: id("-g") };
}

function run(command: string[], timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${command.join(" ")} exited with ${code}:\n${output}`));
    });
  });
}

export async function startPrivatePostgres(bin: string): Promise<PrivatePostgres> {
  const user = runAs();
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "cartner-pg-"));
  const dataDir = path.join(dir, "data");
  const logFile = path.join(dir, "postgres.log");
  let running = false;
  let destroyed = false;
  const stopImmediately = async () => {
    await run([...user.prefix, path.join(bin, "pg_ctl"), "-D", dataDir, "-m", "immediate", "stop"]);
    running = false;
  };
  const destroy = async () => {
    if (destroyed) return;
    destroyed = true;
    if (running) await stopImmediately().catch(() => {});
    await fsp.rm(dir, { recursive: true, force: true });
  };
  try {
    if (user.uid !== undefined) await fsp.chown(dir, user.uid, user.gid!);
    const port = await freePort(5490, 5499);
    await run([
      ...user.prefix,
      path.join(bin, "initdb"),
      "-D",
      dataDir,
      "-U",
      "postgres",
      "-A",
      "trust",
      "-E",
      "UTF8",
      "--no-sync",
    ]);
    // The socket goes into the cluster's own directory, not /var/run/postgresql.
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    const start = async () => {
      running = true; // even a start that times out may have left a postmaster to stop
      await run([
        ...user.prefix,
        path.join(bin, "pg_ctl"),
        "-D",
        dataDir,
        "-l",
        logFile,
        "-w",
        "-t",
        "30",
        "-o",
        options,
        "start",
      ]);
    };
    await start();
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      port,
      start,
      stopImmediately,
      destroy,
      log: () => {
        try {
          return fs.readFileSync(logFile, "utf8");
        } catch {
          return "";
        }
      },
    };
  } catch (error) {
    await destroy();
    throw error;
  }
}
