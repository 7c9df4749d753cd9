import { LIVE_MAX_SOCKETS_PER_USER, LiveClose } from "@cartner/contract";
import type { FastifyBaseLogger } from "fastify";
import type { WebSocket } from "ws";
import { meter } from "../../lib/metrics.ts";
import { authenticate, type AuthDeps } from "../auth/index.ts";
import type { BusMessage, EventBus } from "./bus.ts";

interface Peer {
  socket: WebSocket;
  userId: string;
  /** The auth session the socket signed in with, so a sign-out closes exactly its sockets. */
  sid: string;
  token: string;
  /** Answered the last ping. */
  alive: boolean;
  /** Which of the CHECK_SLOTS ticks of a check period pings and re-checks this socket. */
  slot: number;
}

/**
 * A check period is cut into this many ticks and each socket is checked on its own one, so 10,000
 * sockets cost 1/30 of their checks at a time, not one burst of 10,000 auth lookups that holds the
 * event loop (and every live delivery) for a moment each period.
 */
const CHECK_SLOTS = 30;

export interface LiveHubDeps {
  bus: EventBus;
  /** The user ids of a session's members now (pending join requests are not members). */
  memberIds: (sessionId: string) => Promise<string[]>;
  /** What checking a socket's token again takes (authenticate() throws once it has ended). */
  auth: Pick<AuthDeps, "db" | "clock" | "tokens" | "sessionCache">;
  log: FastifyBaseLogger;
  /** How often peers are pinged and their auth sessions checked again. */
  checkEveryMs: number;
}

/**
 * This instance's signed-in sockets: a created object, since it holds them (by user), the timer
 * that pings and re-checks them, and its subscription to the bus. Every event from the bus goes
 * to the sockets of the users it names and of the session's members at delivery time, so a
 * member who was removed hears nothing more and a new member hears the next change.
 */
export function createLiveHub(deps: LiveHubDeps) {
  const { bus, memberIds, log } = deps;
  const byUser = new Map<string, Set<Peer>>();

  async function deliver(message: BusMessage) {
    if (byUser.size === 0) return;
    if ("gap" in message) {
      // Changes may have been missed: clients reconnect, and refetch what they show.
      for (const peers of byUser.values())
        for (const peer of peers) peer.socket.close(LiveClose.RESYNC, "Reconnect to catch up");
      return;
    }
    if ("invalidate" in message || "lost" in message) return; // for the caches
    if ("disconnect" in message) {
      const { userId, sid, code, reason } = message.disconnect;
      for (const peer of byUser.get(userId) ?? []) {
        if (sid === undefined || peer.sid === sid) peer.socket.close(code, reason);
      }
      return;
    }
    const users = new Set(message.users);
    if (message.members) for (const id of await memberIds(message.members)) users.add(id);
    const text = JSON.stringify(message.event);
    let sent = false;
    for (const id of users) {
      for (const peer of byUser.get(id) ?? []) {
        peer.socket.send(text);
        sent = true;
      }
    }
    if (sent && message.at !== undefined) {
      meter.liveDelivered(Math.max(0, Date.now() - message.at) / 1000);
    }
  }

  const unsubscribe = bus.subscribe((message) => {
    deliver(message).catch((error: unknown) =>
      log.warn({ err: error }, "live: an event could not be delivered"),
    );
  });

  async function check(peer: Peer) {
    if (!peer.alive) {
      peer.socket.terminate(); // no pong since the last ping: a dead peer
      return;
    }
    peer.alive = false;
    peer.socket.ping();
    try {
      await authenticate(deps.auth, peer.token);
    } catch {
      peer.socket.close(LiveClose.UNAUTHORIZED, "Your session has ended");
    }
  }

  let tick = 0;
  const timer = setInterval(() => {
    const slot = tick++ % CHECK_SLOTS;
    for (const peers of byUser.values()) {
      for (const peer of peers) if (peer.slot === slot) void check(peer);
    }
  }, deps.checkEveryMs / CHECK_SLOTS);
  timer.unref();

  return {
    /**
     * Registers a socket that has authenticated; it is dropped again when it closes. An account
     * with LIVE_MAX_SOCKETS_PER_USER open already gets this one closed with 4429 (false).
     */
    add(socket: WebSocket, auth: { userId: string; sid: string; token: string }): boolean {
      const { userId } = auth;
      let peers = byUser.get(userId);
      if (peers && peers.size >= LIVE_MAX_SOCKETS_PER_USER) {
        socket.close(
          LiveClose.TOO_MANY,
          `At most ${LIVE_MAX_SOCKETS_PER_USER} live connections per account`,
        );
        return false;
      }
      const peer: Peer = {
        socket,
        ...auth,
        alive: true,
        slot: Math.floor(Math.random() * CHECK_SLOTS),
      };
      if (!peers) byUser.set(userId, (peers = new Set()));
      peers.add(peer);
      meter.liveSocket(1);
      socket.on("pong", () => (peer.alive = true));
      socket.on("close", () => {
        meter.liveSocket(-1);
        peers.delete(peer);
        if (peers.size === 0 && byUser.get(userId) === peers) byUser.delete(userId);
      });
      return true;
    },
    /** Signed-in sockets on this instance. */
    size() {
      let n = 0;
      for (const peers of byUser.values()) n += peers.size;
      return n;
    },
    close() {
      clearInterval(timer);
      unsubscribe();
    },
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;
