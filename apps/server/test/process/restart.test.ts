import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mailboxCode, postJson, startServer, type ServerProcess } from "./server-process.ts";

const PASSWORD = "plum-orchard-42";
// These start real server processes (a fresh embedded database takes seconds) and hash passwords
// on every write: generous time, as CI's machine may be busy with the other test projects.
vi.setConfig({ testTimeout: 120_000 });
let dataDir: string;
let running: ServerProcess | undefined;

afterEach(async () => {
  running?.child.kill("SIGKILL");
  running = undefined;
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

const newDataDir = async () =>
  (dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-data-")));

async function stop(server: ServerProcess, signal: NodeJS.Signals = "SIGTERM") {
  server.child.kill(signal);
  return server.exited;
}

describe("the embedded database on disk (npm start's default)", () => {
  it("keeps accounts and the generated JWT secret across a restart", async () => {
    const dir = await newDataDir();
    running = await startServer({ DATA_DIR: dir });
    const email = "restart@example.com";
    const reg = await postJson(`${running.url}/api/auth/register`, {
      name: "Ann",
      email,
      password: PASSWORD,
    });
    expect(reg.status).toBe(201);
    const code = await mailboxCode(running.url, email);
    const verified = await postJson(`${running.url}/api/auth/verify-otp`, {
      userId: reg.body.userId,
      code,
    });
    expect(verified.status).toBe(200);
    const secret = await fs.readFile(path.join(dir, "jwt-secret"), "utf8");
    expect((await fs.stat(path.join(dir, "jwt-secret"))).mode & 0o777).toBe(0o600);
    expect(await stop(running)).toBe(0);

    running = await startServer({ DATA_DIR: dir });
    expect(await fs.readFile(path.join(dir, "jwt-secret"), "utf8")).toBe(secret);
    // The token signed before the restart is still valid: same secret, same auth session.
    const res = await fetch(`${running.url}/api/auth/validate-token`, {
      headers: { authorization: `Bearer ${verified.body.token}` },
    });
    expect(res.status).toBe(200);
    const again = await postJson(`${running.url}/api/auth/register`, {
      name: "Ann",
      email,
      password: PASSWORD,
    });
    expect(again.status).toBe(409);
  });

  it("loses no acknowledged write when killed with SIGKILL mid-write", async () => {
    const dir = await newDataDir();
    running = await startServer({ DATA_DIR: dir });
    const server = running;
    const acknowledged: string[] = [];
    let n = 0;
    const writer = async () => {
      for (;;) {
        const email = `kill.${n++}@example.com`;
        try {
          const res = await postJson(`${server.url}/api/auth/register`, {
            name: "K",
            email,
            password: PASSWORD,
          });
          if (res.status === 201) acknowledged.push(email);
        } catch {
          return; // the server is gone
        }
      }
    };
    const writers = Array.from({ length: 8 }, writer);
    while (acknowledged.length < 30) await new Promise((r) => setTimeout(r, 20));
    server.child.kill("SIGKILL");
    await Promise.all(writers);
    expect(await server.exited).toBe("SIGKILL");

    running = await startServer({ DATA_DIR: dir });
    const lost: string[] = [];
    for (const email of acknowledged) {
      // An existing account answers 409; a lost one would be created again (201).
      const res = await postJson(`${running.url}/api/auth/register`, {
        name: "K",
        email,
        password: PASSWORD,
      });
      if (res.status !== 409 && res.status !== 429) lost.push(email);
    }
    expect(lost).toEqual([]);
    // Every acknowledged account has its code mailed: the account and its code were one commit.
    for (const email of acknowledged.slice(0, 5)) await mailboxCode(running.url, email);
  });

  it("finishes in-flight requests on SIGTERM and exits cleanly", async () => {
    const dir = await newDataDir();
    running = await startServer({ DATA_DIR: dir });
    const server = running;
    const requests = Array.from({ length: 10 }, (_, i) =>
      postJson(`${server.url}/api/auth/register`, {
        name: "G",
        email: `graceful.${i}@example.com`,
        password: PASSWORD,
      }).then(
        (r) => r.status,
        (error: Error) => `connection error: ${error.message}`,
      ),
    );
    // Signal as soon as the server is visibly busy: one answer is out, the others are in flight.
    await Promise.race(requests);
    server.child.kill("SIGTERM");
    const statuses = await Promise.all(requests);
    const code = await server.exited;
    expect(code, server.output()).toBe(0);
    // Each request either completed or was told to come back; none was cut off mid-way.
    for (const status of statuses) expect([201, 503], JSON.stringify(statuses)).toContain(status);
    expect(statuses).toContain(201);
  });
  it("stops within the drain, database closed, when a client never finishes its request", async () => {
    const dir = await newDataDir();
    running = await startServer({ DATA_DIR: dir });
    const server = running;
    // Half a request: its headers never end, so it never reaches a handler.
    const client = net.connect(server.port, "127.0.0.1");
    client.on("error", () => {});
    await new Promise<void>((resolve) => client.once("connect", () => resolve()));
    const cut = new Promise<void>((resolve) => client.once("close", () => resolve()));
    client.write("GET /api/conhealth HTTP/1.1\r\nHost: localhost\r\n");
    try {
      const signalled = performance.now();
      server.child.kill("SIGTERM");
      const code = await server.exited;
      const stoppedMs = performance.now() - signalled;
      // Exit 0 is the stop's own end: the 10 s grace would have ended it with 1, the embedded
      // database still marked in use.
      expect(code, server.output()).toBe(0);
      expect(stoppedMs, server.output()).toBeLessThan(8_000);
      // The server closed the half-sent request's connection itself.
      await cut;
    } finally {
      client.destroy();
    }
    // The embedded database was closed: the next start opens it.
    running = await startServer({ DATA_DIR: dir });
    expect((await fetch(`${running.url}/api/conhealth`)).status).toBe(200);
  });
});
