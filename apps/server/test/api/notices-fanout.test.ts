/**
 * A cart change's fan-out (PGlite and PostgreSQL): its live event reaches every other member
 * (on the embedded database before the notice of it), and each member's notice is their own row,
 * told to them alone, though the rows of one change are written together.
 */
import type { LiveServerMessage } from "@cartner/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notifications as noticesTable } from "../../src/db/schema.ts";
import { createNoticeState } from "../../src/features/notifications/index.ts";
import { notifyEach } from "../../src/features/notifications/service.ts";
import type { Published } from "../../src/features/live/index.ts";
import { createTestApp, sessionWithEveryRole, type Client, type TestApp } from "../helpers.ts";
import { listenForLive, settle, signedIn, within } from "../live-peers.ts";

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  base = await listenForLive(t);
});
afterAll(() => t.close());

describe("a cart change's fan-out", () => {
  it("sends the change to every other member first, then each their own notice", async () => {
    const f = await sessionWithEveryRole(t);
    await t.app.idle();
    for (const as of Object.values(f.as))
      await as("POST", "/api/notifications/read", { all: true });
    const readers = ["creator", "viewer"] as const;
    const peers = {
      creator: await signedIn(base, f.people.creator.token),
      viewer: await signedIn(base, f.people.viewer.token),
      participant: await signedIn(base, f.people.participant.token),
    };
    const { products } = (await f.as.creator("GET", "/api/products?limit=20")).json() as {
      products: { _id: string; stock: number }[];
    };
    const product = products.find((p) => p.stock > 5)!;
    const added = await f.as.participant("POST", `/api/carts/${f.cartId}/product`, {
      productId: product._id,
      quantity: 1,
    });
    expect(added.statusCode, added.body).toBe(200);
    const ids: string[] = [];
    for (const role of readers) {
      const peer = peers[role];
      const notice = await within(
        peer.next((m) => m.type === "notification.created"),
        5000,
      );
      const kinds = peer.messages.map((m: LiveServerMessage) => m.type);
      expect(kinds).toContain("cart.updated");
      // The embedded database runs one statement at a time, in order: the event's read of the
      // members is asked before the notice's first statement, so the event goes first. On
      // PostgreSQL both go through NOTIFY from a pool of connections, in either order.
      if (process.env.TEST_DB !== "postgres") {
        expect(kinds.indexOf("cart.updated")).toBeLessThan(kinds.indexOf("notification.created"));
      }
      await t.app.idle();
      const box = (await f.as[role]("GET", "/api/notifications")).json() as {
        notifications: { _id: string; kind: string }[];
        unread: number;
      };
      expect(box.unread).toBe(1);
      expect(box.notifications[0]!.kind).toBe("changes");
      expect(notice).toEqual({
        type: "notification.created",
        notificationId: box.notifications[0]!._id,
      });
      ids.push(box.notifications[0]!._id);
    }
    expect(new Set(ids).size).toBe(readers.length);
    await settle();
    // Each reader heard of their own notice only; the actor of none.
    for (const role of readers) {
      expect(peers[role].messages.filter((m) => m.type === "notification.created")).toHaveLength(1);
    }
    expect(peers.participant.messages.some((m) => m.type === "cart.updated")).toBe(true);
    expect(peers.participant.messages.filter((m) => m.type === "notification.created")).toEqual([]);
    for (const peer of Object.values(peers)) peer.socket.close();
  });
});

/** A world's notices of its making read, so what follows is all there is. */
async function quiet(f: Awaited<ReturnType<typeof sessionWithEveryRole>>) {
  await t.app.idle();
  for (const as of Object.values(f.as)) await as("POST", "/api/notifications/read", { all: true });
  return f;
}

async function inbox(as: Client) {
  await t.app.idle();
  return (await as("GET", "/api/notifications")).json() as {
    notifications: { _id: string; kind: string; body: string; sessionId?: string }[];
    unread: number;
  };
}

describe("cart notices told together", () => {
  it("tells each reader of each session what the others did, when changes come at once", async () => {
    const one = await quiet(await sessionWithEveryRole(t));
    const two = await quiet(await sessionWithEveryRole(t));
    const { products } = (await one.as.creator("GET", "/api/products?limit=30")).json() as {
      products: { _id: string; name: string; stock: number }[];
    };
    const [a, b, c] = products.filter((p) => p.stock > 5);
    const add = (as: Client, cartId: string, productId: string) =>
      as("POST", `/api/carts/${cartId}/product`, { productId, quantity: 1 });
    const answers = await Promise.all([
      add(one.as.creator, one.cartId, a!._id),
      add(one.as.participant, one.cartId, b!._id),
      add(two.as.participant, two.cartId, c!._id),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const vic = await inbox(one.as.viewer);
    expect(vic.unread).toBe(1);
    expect(vic.notifications[0]!.body).toMatch(
      new RegExp(`^(Ann|Ben) added .+ to Weekend groceries \\(\\+1 more\\)$`),
    );
    expect((await inbox(one.as.creator)).notifications[0]!.body).toBe(
      `Ben added ${b!.name} to Weekend groceries`,
    );
    expect((await inbox(one.as.participant)).notifications[0]!.body).toBe(
      `Ann added ${a!.name} to Weekend groceries`,
    );
    const ann2 = await inbox(two.as.creator);
    expect(ann2.unread).toBe(1);
    expect(ann2.notifications[0]).toMatchObject({
      sessionId: two.sessionId,
      body: `Ben added ${c!.name} to Weekend groceries`,
    });
    expect((await inbox(two.as.participant)).unread).toBe(0);
  });

  it("writes several notices' rows together as notify() one after the other would", async () => {
    const f = await quiet(await sessionWithEveryRole(t));
    const published: Published[] = [];
    const deps = {
      db: t.database.db,
      clock: t.clock,
      events: { publish: (p: Published) => void published.push(p) },
      log: t.app.log,
      channels: {},
      state: createNoticeState(),
    };
    const { creator: ann, participant: ben, viewer: vic } = f.people;
    const change = (actorId: string, userIds: string[], body: string, changes: number) => ({
      kind: "changes" as const,
      userIds,
      actorId,
      sessionId: f.sessionId,
      title: "Changes in Weekend groceries",
      body,
      url: `/cart/${f.sessionId}`,
      changes,
    });
    // Vic is told twice of one session here: the second counts on from the first.
    expect(
      await notifyEach(deps, [
        change(ben.userId, [vic.userId, ann.userId, ben.userId], "Ben added Wine", 1),
        change(ann.userId, [vic.userId], "Ann added Bread", 2),
      ]),
    ).toEqual([2, 1]);
    const rows = await t.database.db.select().from(noticesTable);
    const unreadOf = (userId: string) =>
      rows.filter((r) => r.userId === userId && r.sessionId === f.sessionId && !r.readAt);
    expect(unreadOf(vic.userId).map((r) => [r.body, r.count])).toEqual([
      ["Ann added Bread (+2 more)", 3],
    ]);
    expect(unreadOf(ann.userId).map((r) => [r.body, r.count])).toEqual([["Ben added Wine", 1]]);
    expect(unreadOf(ben.userId)).toEqual([]);
    // An unread row told of two more changes at once.
    await notifyEach(deps, [change(ben.userId, [vic.userId], "Ben removed Wine", 2)]);
    const again = await t.database.db.select().from(noticesTable);
    expect(
      again
        .filter((r) => r.userId === vic.userId && r.sessionId === f.sessionId && !r.readAt)
        .map((r) => [r.body, r.count]),
    ).toEqual([["Ben removed Wine (+4 more)", 5]]);
    // Each row told to its reader alone: Vic's three times, Ann's once.
    const told = published.flatMap((p) => ("users" in p ? (p.users ?? []) : []));
    expect(told.sort()).toEqual([ann.userId, vic.userId, vic.userId, vic.userId].sort());
  });
});
