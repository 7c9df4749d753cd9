import {
  LIVE_MAX_SOCKETS_PER_USER,
  LiveClose,
  type LiveEventType,
  type LiveLookMessage,
  type LookView,
} from "@cartner/contract";
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

/** A socket opened by a look-only link: no account, one session's list. */
interface LookPeer {
  socket: WebSocket;
  linkId: string;
  sessionId: string;
  alive: boolean;
  slot: number;
}

/**
 * Keeps a socket's peer under `key` (its account, or the session a link looks at) while it is
 * open: counted, marked alive by its pongs, and dropped with its set's last member when it closes.
 */
function register<P extends { socket: WebSocket; alive: boolean }>(
  map: Map<string, Set<P>>,
  key: string,
  peer: P,
): void {
  let peers = map.get(key);
  if (!peers) map.set(key, (peers = new Set()));
  const set = peers;
  set.add(peer);
  meter.liveSocket(1);
  peer.socket.on("pong", () => (peer.alive = true));
  peer.socket.on("close", () => {
    meter.liveSocket(-1);
    set.delete(peer);
    if (set.size === 0 && map.get(key) === set) map.delete(key);
  });
}

/** The members' events after which a look-only view may differ: it is read again and sent. */
const LOOK_CHANGES: readonly LiveEventType[] = [
  "cart.updated",
  "catalog.updated",
  "session.updated",
  "member.left",
  "member.removed",
];

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
  /**
   * A look-only link's view now, by the link's id (the gate decides); null once the link no
   * longer works (revoked, expired, its session ended).
   */
  lookView: (linkId: string) => Promise<LookView | null>;
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
  /** Sockets opened by look-only links, by the link's session. */
  const looking = new Map<string, Set<LookPeer>>();

  const lookGone = (peer: LookPeer) =>
    peer.socket.close(LiveClose.LINK_GONE, "This link does not work any more");

  /** Reads each link's view once and sends it to the sockets open by that link. */
  async function sendLooks(peers: Set<LookPeer>) {
    const links = new Map<string, LookPeer[]>();
    for (const peer of peers) links.set(peer.linkId, [...(links.get(peer.linkId) ?? []), peer]);
    await Promise.all(
      [...links].map(async ([linkId, sockets]) => {
        const view = await deps.lookView(linkId);
        if (view === null) {
          for (const peer of sockets) lookGone(peer);
          return;
        }
        const text = JSON.stringify({ type: "look.view", view } satisfies LiveLookMessage);
        for (const peer of sockets) peer.socket.send(text);
      }),
    );
  }

  /**
   * Sessions whose views are being read and sent: one refresh at a time per session, so views
   * arrive in order, and a burst of changes meanwhile costs one more read, not one each.
   */
  const refreshing = new Map<string, { again: boolean }>();

  function refreshLooks(sessionId: string) {
    const running = refreshing.get(sessionId);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false };
    refreshing.set(sessionId, state);
    void (async () => {
      do {
        state.again = false;
        const peers = looking.get(sessionId);
        if (peers) await sendLooks(peers);
      } while (state.again);
    })()
      .catch((error: unknown) => log.warn({ err: error }, "live: a look-only view was not sent"))
      .finally(() => refreshing.delete(sessionId));
  }

  /** What look-only sockets hear: their session's list after a change, and their link's end. */
  function deliverToLooks(message: BusMessage) {
    if (looking.size === 0) return;
    if ("gap" in message) {
      for (const peers of looking.values())
        for (const peer of peers) peer.socket.close(LiveClose.RESYNC, "Reconnect to catch up");
      return;
    }
    if ("linkGone" in message) {
      for (const peers of looking.values())
        for (const peer of peers) if (peer.linkId === message.linkGone.linkId) lookGone(peer);
      return;
    }
    if (!("event" in message) || !message.event.sessionId) return;
    const peers = looking.get(message.event.sessionId);
    if (!peers) return;
    if (message.event.type === "session.ended") {
      for (const peer of peers) lookGone(peer);
    } else if (LOOK_CHANGES.includes(message.event.type)) {
      refreshLooks(message.event.sessionId);
    }
  }

  /**
   * A session's members, read once for the messages that arrive together: a change publishes its
   * events in one go (cart.updated and activity.created), and they share one read. A read is shared
   * only until the next microtask, so only by messages that were queued (on the local bus) or
   * received (from NOTIFY) before it was asked, whose changes it therefore sees; any later message
   * reads again.
   */
  const reading = new Map<string, Promise<string[]>>();
  function membersNow(sessionId: string): Promise<string[]> {
    let read = reading.get(sessionId);
    if (!read) {
      reading.set(sessionId, (read = memberIds(sessionId)));
      queueMicrotask(() => reading.delete(sessionId));
    }
    return read;
  }

  async function deliver(message: BusMessage) {
    if (byUser.size === 0) return;
    if ("gap" in message) {
      // Changes may have been missed: clients reconnect, and refetch what they show.
      for (const peers of byUser.values())
        for (const peer of peers) peer.socket.close(LiveClose.RESYNC, "Reconnect to catch up");
      return;
    }
    if ("invalidate" in message || "lost" in message || "linkGone" in message) return;
    if ("disconnect" in message) {
      const { userId, sid, code, reason } = message.disconnect;
      for (const peer of byUser.get(userId) ?? []) {
        if (sid === undefined || peer.sid === sid) peer.socket.close(code, reason);
      }
      return;
    }
    const users = new Set(message.users);
    if (message.members) for (const id of await membersNow(message.members)) users.add(id);
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
    deliverToLooks(message);
    deliver(message).catch((error: unknown) =>
      log.warn({ err: error }, "live: an event could not be delivered"),
    );
  });

  /** A look-only socket: alive, and its link still works (it may have expired meanwhile). */
  async function checkLook(peer: LookPeer) {
    if (!peer.alive) {
      peer.socket.terminate();
      return;
    }
    peer.alive = false;
    peer.socket.ping();
    // A database that does not answer now is not a link that stopped working: the next check.
    const view = await deps.lookView(peer.linkId).catch(() => undefined);
    if (view === null) lookGone(peer);
  }

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
    for (const peers of looking.values()) {
      for (const peer of peers) if (peer.slot === slot) void checkLook(peer);
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
      const peers = byUser.get(userId);
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
      register(byUser, userId, peer);
      return true;
    },
    /**
     * Registers a socket opened by a look-only link that works; dropped again when it closes. A
     * link with LIVE_MAX_SOCKETS_PER_USER open already gets this one closed with 4429 (false).
     */
    addLook(socket: WebSocket, link: { linkId: string; sessionId: string }): boolean {
      const { sessionId } = link;
      const open = [...(looking.get(sessionId) ?? [])].filter((p) => p.linkId === link.linkId);
      if (open.length >= LIVE_MAX_SOCKETS_PER_USER) {
        socket.close(
          LiveClose.TOO_MANY,
          `At most ${LIVE_MAX_SOCKETS_PER_USER} live connections per link`,
        );
        return false;
      }
      const peer: LookPeer = {
        socket,
        ...link,
        alive: true,
        slot: Math.floor(Math.random() * CHECK_SLOTS),
      };
      register(looking, sessionId, peer);
      return true;
    },
    /** Signed-in sockets on this instance. */
    size() {
      let n = 0;
      for (const peers of byUser.values()) n += peers.size;
      return n;
    },
    /** Sockets open by look-only links on this instance. */
    lookSize() {
      let n = 0;
      for (const peers of looking.values()) n += peers.size;
      return n;
    },
    close() {
      clearInterval(timer);
      unsubscribe();
    },
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;
