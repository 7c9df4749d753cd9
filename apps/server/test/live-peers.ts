import type { LiveServerMessage } from "@cartner/contract";
import { WebSocket } from "ws";
import type { TestApp } from "./helpers.ts";

/** A live socket that records what it receives and how it closed. */
export interface Peer {
  messages: LiveServerMessage[];
  closed: Promise<{ code: number; reason: string }>;
  socket: WebSocket;
  /** Resolves with the first message that matches (already received or still to come). */
  next(match: (m: LiveServerMessage) => boolean): Promise<LiveServerMessage>;
}

/** Listens on a free port; answers the live socket's URL. */
export async function listenForLive(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return `ws://127.0.0.1:${address.port}/api/live`;
}

export function open(base: string, headers: Record<string, string> = {}): Peer {
  const socket = new WebSocket(base, { headers });
  const messages: LiveServerMessage[] = [];
  const waiters: Array<{
    match: (m: LiveServerMessage) => boolean;
    resolve: (m: LiveServerMessage) => void;
  }> = [];
  socket.on("message", (data) => {
    const message = JSON.parse(String(data)) as LiveServerMessage;
    messages.push(message);
    for (const w of [...waiters]) {
      if (w.match(message)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(message);
      }
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on("close", (code, reason) => resolve({ code, reason: String(reason) })),
  );
  return {
    socket,
    messages,
    closed,
    next: (match) => {
      const found = messages.find(match);
      return found
        ? Promise.resolve(found)
        : new Promise((resolve) => waiters.push({ match, resolve }));
    },
  };
}

/** A socket that has sent its token and been answered `ready`. */
export async function signedIn(base: string, token: string): Promise<Peer> {
  const peer = open(base);
  await new Promise((resolve, reject) => {
    peer.socket.once("open", resolve);
    peer.socket.once("error", reject);
  });
  peer.socket.send(JSON.stringify({ type: "auth", token }));
  await peer.next((m) => m.type === "ready");
  return peer;
}

export const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms),
    ),
  ]);

/** Lets events in flight arrive, so "received nothing" means something. */
export const settle = () => new Promise((r) => setTimeout(r, 300));
