import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src/main.ts");

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code (or signal name). */
  exited: Promise<number | string>;
  output: () => string;
}

/** Starts the real server (`node src/main.ts`) and waits until /api/conhealth answers. */
export async function startServer(
  env: Record<string, string>,
  port?: number,
): Promise<ServerProcess> {
  const p = port ?? (await freePort());
  const child = spawn(process.execPath, [main], {
    env: {
      PATH: process.env.PATH ?? "",
      HOST: "127.0.0.1",
      PORT: String(p),
      LOG_LEVEL: "warn",
      AUTH_RATE_LIMIT: "100000",
      RATE_LIMIT: "100000",
      WEB_DIST: "/nonexistent",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const url = `http://127.0.0.1:${p}`;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const res = await fetch(`${url}/api/conhealth`);
      if (res.ok) return { url, child, exited, output: () => output };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`server did not become healthy:\n${output}`);
}

export async function postJson(url: string, body: unknown, token?: string) {
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

export async function mailboxCode(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}/dev/mailbox`, { headers: { accept: "application/json" } });
  const { mails } = (await res.json()) as { mails: Array<{ to: string; text: string }> };
  const code = mails.find((m) => m.to === email)?.text.match(/Your code: (\d{6})/)?.[1];
  if (!code) throw new Error(`no code for ${email}`);
  return code;
}
