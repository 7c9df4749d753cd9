/**
 * A cart change's fan-out (PGlite and PostgreSQL): its live event reaches every other member
 * (on the embedded database before the notice of it), and each member's notice is their own row,
 * told to them alone, though the rows of one change are written together.
 */
import type { LiveServerMessage } from "@cartner/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, sessionWithEveryRole, type TestApp } from "../helpers.ts";
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
