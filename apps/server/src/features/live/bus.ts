import type { LiveEvent } from "@cartner/contract";
import type { FastifyBaseLogger } from "fastify";
import pg from "pg";
import { groupCommit } from "../../lib/group-commit.ts";

/**
 * A committed change, and who hears of it: the members of `members` (a session id) at delivery
 * time, plus `users` (an invitee, someone who just left). Services publish after commit only.
 */
export interface Published {
  event: LiveEvent;
  members?: string;
  users?: string[];
  /** When it was published (epoch ms), set by the bus: its delivery's latency is a metric. */
  at?: number;
}

/** A live event stamped with its publish time; other messages as they are. */
function stamped<M extends Sent>(message: M): M {
  return "event" in message ? { ...message, at: Date.now() } : message;
}

/**
 * Sockets to close at once, on every instance: a user's (or one auth session's) after a sign-out
 * or revocation (4401), or after losing a membership (4403).
 */
export interface Disconnect {
  disconnect: { userId: string; sid?: string; code: 4401 | 4403; reason: string };
}

/**
 * A look-only link stopped working (revoked): the sockets open by it close at once, on every
 * instance.
 */
export interface LinkGone {
  linkGone: { linkId: string };
}

/**
 * What each instance's caches must forget (decision 007): the member reads after a write, the
 * remembered auth sessions of a user (or one of them, or everyone's, with neither named), and the
 * catalog after an import.
 */
export interface Invalidate {
  invalidate: {
    reads?: true;
    auth?: { userId?: string; sid?: string };
    /** The products that changed when they are few, else true: whatever rows moved. */
    catalog?: true | string[];
  };
}

/**
 * Delivered to subscribers. `lost`: the LISTEN connection dropped, so nothing published elsewhere
 * arrives until it is back; `gap`: it is back, and messages may have been missed meanwhile.
 */
export type BusMessage = Sent | { lost: true } | { gap: true };

/** What a service publishes on the bus. */
export type Sent = Published | Disconnect | Invalidate | LinkGone;

export interface EventBus {
  publish(published: Sent): void;
  subscribe(listener: (message: BusMessage) => void): () => void;
  /** Whether every instance's messages reach this one now (always, for one instance). */
  connected(): boolean;
  /** Whether other instances publish on it too (PostgreSQL), so invalidations must be sent. */
  readonly shared: boolean;
  close(): Promise<void>;
}

function listeners() {
  const set = new Set<(message: BusMessage) => void>();
  return {
    add(listener: (message: BusMessage) => void) {
      set.add(listener);
      return () => void set.delete(listener);
    },
    emit(message: BusMessage) {
      for (const listener of set) listener(message);
    },
  };
}

/**
 * One instance: events go straight from the service to this process's sockets. A created object,
 * since it holds its subscribers.
 */
export function createLocalBus(): EventBus {
  const subscribers = listeners();
  return {
    // After the current call stack, as a NOTIFY would arrive: the caller's answer is not delayed.
    publish: (published) => {
      const message = stamped(published);
      queueMicrotask(() => subscribers.emit(message));
    },
    subscribe: subscribers.add,
    connected: () => true,
    shared: false,
    close: async () => {},
  };
}

export const LIVE_CHANNEL = "cartner_live";

/**
 * Several instances on one PostgreSQL: publish with NOTIFY on one channel, and every instance
 * (this one included) LISTENs on a connection of its own and forwards to its sockets. When that
 * connection drops it reconnects with backoff and reports a gap, since NOTIFYs sent meanwhile
 * are lost. A created object, since it holds its subscribers, the LISTEN connection, the
 * reconnect timer and the NOTIFYs on their way.
 */
export function createPostgresBus(options: {
  url: string;
  /** Sends `pg_notify(channel, payload)` for each payload, in order, in one statement. */
  notify: (channel: string, payloads: string[]) => Promise<unknown>;
  log: FastifyBaseLogger;
}): EventBus & { ready: Promise<void> } {
  const { url, notify, log } = options;
  const subscribers = listeners();
  let client: pg.Client | undefined;
  let closed = false;
  let delay = 250;
  let timer: NodeJS.Timeout | undefined;
  // The publishes of one turn of the event loop, and those made while a statement is on its
  // way, go as one statement: a write's live event and its cache invalidation, and under load
  // many writes', share a round trip and a commit instead of paying one each. One statement at a
  // time also keeps them in the order they were published. One retry: a revocation that does not
  // arrive leaves a token alive on the others.
  const send = groupCommit(
    (payloads: string[]) =>
      notify(LIVE_CHANNEL, payloads)
        .catch(() => notify(LIVE_CHANNEL, payloads))
        .then(() => payloads.map(() => undefined)),
    undefined,
    "live_notify",
  );

  async function connect(): Promise<void> {
    const c = new pg.Client({ connectionString: url });
    c.on("notification", (msg) => {
      if (msg.channel !== LIVE_CHANNEL || !msg.payload) return;
      try {
        subscribers.emit(JSON.parse(msg.payload) as Sent);
      } catch (error) {
        log.warn({ err: error }, "live: unreadable notification ignored");
      }
    });
    c.on("error", (error) => log.warn({ err: error }, "live: LISTEN connection error"));
    c.on("end", () => {
      if (client !== c || closed) return;
      client = undefined;
      log.warn("live: LISTEN connection lost; reconnecting");
      // From now on this instance hears nothing from the others: its caches step aside.
      subscribers.emit({ lost: true });
      schedule();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${LIVE_CHANNEL}`);
    } catch (error) {
      await c.end().catch(() => {});
      throw error;
    }
    client = c;
  }

  function schedule() {
    timer = setTimeout(() => {
      connect().then(
        () => {
          delay = 250;
          log.info("live: LISTEN connection restored");
          subscribers.emit({ gap: true });
        },
        (error: unknown) => {
          log.warn({ err: error }, "live: reconnect failed");
          delay = Math.min(delay * 2, 10_000);
          schedule();
        },
      );
    }, delay);
    timer.unref();
  }

  return {
    ready: connect(),
    publish(published) {
      send(JSON.stringify(stamped(published))).catch((error: unknown) =>
        log.warn(
          {
            err: error,
            event: "event" in published ? published.event.type : Object.keys(published)[0],
          },
          "live: NOTIFY failed",
        ),
      );
    },
    subscribe: subscribers.add,
    connected: () => client !== undefined && !closed,
    shared: true,
    async close() {
      closed = true;
      clearTimeout(timer);
      await client?.end().catch(() => {});
    },
  };
}
