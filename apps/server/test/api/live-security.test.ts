/**
 * The live channel under misuse: caps on open and not-yet-signed-in sockets,
 * revocation that closes sockets at once, refused upgrades that do not leak server sockets, and
 * oversized frames that are a warning, not an error with a stack.
 */
import { execFileSync } from "node:child_process";
import net from "node:net";
import {
  LIVE_MAX_PENDING_PER_ADDRESS,
  LIVE_MAX_SOCKETS_PER_USER,
  LiveClose,
} from "@cartner/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  captureLog,
  client,
  createTestApp,
  latestCode,
  PASSWORD,
  sessionWithEveryRole,
  signUp,
  type TestApp,
} from "../helpers.ts";
import { listenForLive, open, settle, signedIn, within, type Peer } from "../live-peers.ts";

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  base = await listenForLive(t);
});
afterAll(() => t.close());

const opened = (peer: Peer) =>
  new Promise((resolve, reject) => {
    peer.socket.once("open", resolve);
    peer.socket.once("error", reject);
  });

describe("per-account cap", () => {
  it(`closes the ${LIVE_MAX_SOCKETS_PER_USER + 1}th socket of one account with 4429; the first ${LIVE_MAX_SOCKETS_PER_USER} stay live`, async () => {
    const world = await sessionWithEveryRole(t);
    const token = world.people.participant.token;
    const peers: Peer[] = [];
    for (let i = 0; i < LIVE_MAX_SOCKETS_PER_USER; i++) peers.push(await signedIn(base, token));
    const extra = open(base);
    await opened(extra);
    extra.socket.send(JSON.stringify({ type: "auth", token }));
    const closed = await within(extra.closed, 3_000);
    expect(closed.code).toBe(LiveClose.TOO_MANY);
    expect(closed.reason).toMatch(/live connections per account/);
    expect(extra.messages).toEqual([]);

    // The first twenty still hear a change to their session.
    await world.as.creator("PATCH", `/api/sessions/${world.sessionId}`, { budget: 77 });
    await Promise.all(
      peers.map((peer) =>
        within(
          peer.next((m) => m.type === "session.updated"),
          3_000,
        ),
      ),
    );
    for (const peer of peers) peer.socket.close();
  });
});

describe("sockets waiting to sign in", () => {
  it(`allows ${LIVE_MAX_PENDING_PER_ADDRESS} per address; the next is closed with 4429`, async () => {
    const waiting: Peer[] = [];
    for (let i = 0; i < LIVE_MAX_PENDING_PER_ADDRESS; i++) {
      const peer = open(base);
      await opened(peer);
      waiting.push(peer);
    }
    const extra = open(base);
    const closed = await within(extra.closed, 3_000);
    expect(closed.code).toBe(LiveClose.TOO_MANY);
    // Once one of them is gone, there is room again.
    waiting[0]!.socket.close();
    await within(waiting[0]!.closed, 3_000);
    await settle();
    const later = open(base);
    await opened(later);
    await settle();
    expect(later.socket.readyState).toBe(later.socket.OPEN);
    for (const peer of [...waiting, later]) peer.socket.close();
  });
});

describe("revocation", () => {
  it("logging out closes that session's sockets at once with 4401, not at the next check", async () => {
    const ann = await signUp(t, "Ann");
    const peer = await signedIn(base, ann.token);
    const res = await client(t, ann.token)("POST", "/api/auth/logout");
    expect(res.statusCode).toBe(204);
    const closed = await within(peer.closed, 1_000);
    expect(closed.code).toBe(LiveClose.UNAUTHORIZED);
  });

  it("a completed password change closes every socket of the account", async () => {
    const ann = await signUp(t, "Ann");
    const other = await signUp(t, "Ben");
    const peers = [await signedIn(base, ann.token), await signedIn(base, ann.token)];
    const bystander = await signedIn(base, other.token);
    const start = await client(t, ann.token)("PATCH", "/api/auth/update-credentials", {
      password: "a-new-password-77",
      currentPassword: PASSWORD,
    });
    expect(start.statusCode).toBe(200);
    const verify = await t.app.inject({
      method: "POST",
      url: "/api/auth/verify-otp",
      payload: { userId: ann.userId, code: await latestCode(t.database, ann.email) },
    });
    expect(verify.statusCode).toBe(200);
    for (const peer of peers) {
      expect((await within(peer.closed, 1_000)).code).toBe(LiveClose.UNAUTHORIZED);
    }
    await settle();
    expect(bystander.socket.readyState).toBe(bystander.socket.OPEN);
    bystander.socket.close();
  });
});

describe("bad frames", () => {
  it("an oversized frame closes the socket (1009) and logs a warning without a stack", async () => {
    // The logger takes stdout as it is when the app is built: build it inside the capture.
    const log = await captureLog(async () => {
      const logged = await createTestApp({ env: { LOG_LEVEL: "warn" } });
      try {
        const peer = open(await listenForLive(logged));
        await opened(peer);
        peer.socket.send("x".repeat(64 * 1024));
        expect((await within(peer.closed, 3_000)).code).toBe(1009);
        await settle();
      } finally {
        await logged.close();
      }
    });
    const lines = log.split("\n").filter((line) => line.includes("bad frame"));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!).level).toBe(40);
    expect(lines[0]).not.toMatch(/"stack"/);
  });
});

/** Sockets of this process in CLOSE-WAIT on the given local port (ss is in iproute2). */
function closeWait(port: number): number {
  const out = execFileSync("ss", ["-Htan", "state", "close-wait", `( sport = :${port} )`], {
    encoding: "utf8",
  });
  return out.split("\n").filter((line) => line.trim() !== "").length;
}

/** One raw upgrade request; resolves with the status line once the server answered. */
function upgrade(port: number, headers = ""): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: "127.0.0.1" }, () =>
      socket.write(
        "GET /api/live HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n" +
          `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n${headers}\r\n`,
      ),
    );
    let answer = "";
    socket.on("data", (chunk) => {
      answer += String(chunk);
      if (answer.includes("\r\n")) {
        // The client goes away; a server that keeps its end would sit in CLOSE-WAIT.
        socket.end();
        resolve(answer.split("\r\n")[0]!);
      }
    });
    socket.on("error", reject);
  });
}

describe("refused upgrades", () => {
  it("end their server socket: 200 refused by the rate limit leave nothing in CLOSE-WAIT", async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT: "5" } });
    await limited.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = limited.app.server.address() as net.AddressInfo;
    try {
      const statuses = new Map<string, number>();
      for (let i = 0; i < 200; i++) {
        const status = await upgrade(port);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
      expect(statuses.get("HTTP/1.1 429 Too Many Requests")).toBeGreaterThanOrEqual(190);
      // Refused for other reasons: a foreign Origin (403).
      for (let i = 0; i < 20; i++) {
        expect(await upgrade(port, "Origin: https://evil.example\r\n")).toMatch(/ 4\d\d /);
      }
      await settle();
      expect(closeWait(port)).toBe(0);
    } finally {
      await limited.close();
    }
  });
});
