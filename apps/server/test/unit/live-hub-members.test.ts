/**
 * The live hub reads a session's members when its events arrive: the events of one change share
 * one read, and an event published after that read was asked reads them again, so it reaches
 * whoever is a member by then (a member who joined in between, not one who left).
 */
import { EventEmitter } from "node:events";
import type { FastifyBaseLogger } from "fastify";
import type { WebSocket } from "ws";
import { describe, expect, it } from "vitest";
import { createLocalBus } from "../../src/features/live/bus.ts";
import { createLiveHub } from "../../src/features/live/hub.ts";

/** A socket that keeps what it was sent. */
function fakeSocket() {
  const socket = new EventEmitter() as EventEmitter & { sent: string[] };
  socket.sent = [];
  Object.assign(socket, {
    send: (text: string) => socket.sent.push(text),
    ping: () => {},
    close: () => {},
    terminate: () => {},
  });
  return socket;
}

function hubWith(members: () => string[]) {
  const bus = createLocalBus();
  let reads = 0;
  const hub = createLiveHub({
    bus,
    memberIds: async () => {
      reads += 1;
      const now = members();
      await new Promise((r) => setTimeout(r, 5));
      return now;
    },
    auth: {} as never,
    log: { warn: () => {} } as unknown as FastifyBaseLogger,
    checkEveryMs: 3_600_000,
    lookView: async () => null,
  });
  const sockets = new Map<string, ReturnType<typeof fakeSocket>>();
  for (const userId of ["ann", "ben", "cat"]) {
    const socket = fakeSocket();
    sockets.set(userId, socket);
    hub.add(socket as unknown as WebSocket, { userId, sid: `${userId}-sid`, token: "t" });
  }
  const received = (userId: string) =>
    sockets.get(userId)!.sent.map((text) => (JSON.parse(text) as { type: string }).type);
  return { bus, hub, reads: () => reads, received };
}

const flush = () => new Promise((r) => setTimeout(r, 30));

describe("the live hub's reads of a session's members", () => {
  it("reads them once for the events a change publishes together", async () => {
    const { bus, hub, reads, received } = hubWith(() => ["ann", "ben"]);
    const event = { type: "cart.updated", sessionId: "s1", cartId: "c1", version: 2 } as const;
    bus.publish({ event, members: "s1" });
    bus.publish({ event: { type: "activity.created", sessionId: "s1" }, members: "s1" });
    await flush();
    expect(reads()).toBe(1);
    expect(received("ann")).toEqual(["cart.updated", "activity.created"]);
    expect(received("ben")).toEqual(["cart.updated", "activity.created"]);
    expect(received("cat")).toEqual([]);
    hub.close();
  });

  it("reads them again for an event published after that read was asked", async () => {
    let members = ["ann", "ben"];
    const { bus, hub, reads, received } = hubWith(() => members);
    const event = { type: "cart.updated", sessionId: "s1", cartId: "c1", version: 2 } as const;
    bus.publish({ event, members: "s1" });
    // The first read is on its way: a membership change commits and its event follows.
    await Promise.resolve();
    await Promise.resolve();
    members = ["ann", "cat"];
    bus.publish({ event: { ...event, version: 3 }, members: "s1" });
    await flush();
    expect(reads()).toBe(2);
    expect(received("ann")).toEqual(["cart.updated", "cart.updated"]);
    expect(received("ben")).toEqual(["cart.updated"]);
    expect(received("cat")).toEqual(["cart.updated"]);
    hub.close();
  });
});
