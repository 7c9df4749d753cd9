import { LiveClose } from "@cartner/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, sessionWithEveryRole, type TestApp } from "../helpers.ts";
import {
  listenForLive,
  open as openPeer,
  settle,
  signedIn as signInPeer,
  within,
} from "../live-peers.ts";

const CHECK_MS = 150;
let t: TestApp;
let base: string;
let world: Awaited<ReturnType<typeof sessionWithEveryRole>>;

beforeAll(async () => {
  t = await createTestApp({ liveCheckMs: CHECK_MS });
  base = await listenForLive(t);
  world = await sessionWithEveryRole(t);
});
afterAll(() => t.close());

const open = (headers: Record<string, string> = {}) => openPeer(base, headers);
const signedIn = (token: string) => signInPeer(base, token);

async function someProduct(stock = 2) {
  const res = await world.as.creator("GET", "/api/products");
  const products = res.json().products as Array<{ _id: string; stock: number }>;
  return products.find((p) => p.stock >= stock)!;
}

describe("GET /api/live: signing in", () => {
  it("answers ready to a valid token sent as the first message", async () => {
    const peer = await signedIn(world.people.creator.token);
    expect(peer.messages).toEqual([{ type: "ready" }]);
    peer.socket.close();
  });

  it("closes with 4401 on a wrong token, on a malformed message, and on a token in the URL only", async () => {
    for (const first of [
      JSON.stringify({ type: "auth", token: "not-a-token" }),
      "hello",
      JSON.stringify({ type: "auth" }),
      JSON.stringify({ type: "auth", token: world.people.creator.token, extra: 1 }),
    ]) {
      const peer = open();
      await new Promise((r) => peer.socket.once("open", r));
      peer.socket.send(first);
      expect((await peer.closed).code).toBe(LiveClose.UNAUTHORIZED);
      expect(peer.messages).toEqual([]);
    }
  });

  it("closes a socket that never authenticates after 5 s", async () => {
    const peer = open();
    const started = Date.now();
    const { code } = await within(peer.closed, 8_000);
    expect(code).toBe(LiveClose.UNAUTHORIZED);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
  }, 10_000);

  it("refuses the handshake from another site's page", async () => {
    const peer = open({ origin: "https://evil.example" });
    const status = await new Promise<number>((resolve) =>
      peer.socket.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0)),
    );
    expect(status).toBe(403);
  });

  it("accepts the app's own origin, also opened as 127.0.0.1", async () => {
    for (const origin of ["http://localhost:3000", "http://127.0.0.1:3000"]) {
      const peer = open({ origin });
      await new Promise((r) => peer.socket.once("open", r));
      peer.socket.close();
    }
  });

  it("closes a socket that floods messages with 1008", async () => {
    const peer = await signedIn(world.people.participant.token);
    for (let i = 0; i < 40; i++) peer.socket.send("{}");
    expect((await within(peer.closed, 2_000)).code).toBe(LiveClose.POLICY);
  });

  it("closes the socket of a revoked auth session", async () => {
    const { signUp } = await import("../helpers.ts");
    const dana = await signUp(t, "Dana");
    const peer = await signedIn(dana.token);
    const logout = await t.app.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: { authorization: `Bearer ${dana.token}` },
    });
    expect(logout.statusCode).toBeLessThan(300);
    const { code } = await within(peer.closed, CHECK_MS * 4 + 1_000);
    expect(code).toBe(LiveClose.UNAUTHORIZED);
  });
});

describe("GET /api/live: events", () => {
  it("tells every member of a cart change, and no stranger or pending requester", async () => {
    const { people, as, sessionId, cartId } = world;
    const ann = await signedIn(people.creator.token);
    const vic = await signedIn(people.viewer.token);
    const pat = await signedIn(people.pending.token);
    const sam = await signedIn(people.stranger.token);
    const product = await someProduct();

    const add = await as.participant("POST", `/api/carts/${cartId}/product`, {
      productId: product._id,
    });
    expect(add.statusCode).toBe(200);
    const version = add.json().cart.version as number;
    const expected = { type: "cart.updated", sessionId, cartId, version };
    expect(
      await within(
        ann.next((m) => m.type === "cart.updated"),
        2_000,
      ),
    ).toEqual(expected);
    expect(
      await within(
        vic.next((m) => m.type === "cart.updated"),
        2_000,
      ),
    ).toEqual(expected);
    await settle();
    expect(pat.messages).toEqual([{ type: "ready" }]);
    expect(sam.messages).toEqual([{ type: "ready" }]);
    for (const p of [ann, vic, pat, sam]) p.socket.close();
  });

  it("publishes nothing for a refused or rolled-back change, or minus at 1", async () => {
    const { people, as, cartId } = world;
    const product = await someProduct();
    const ann = await signedIn(people.creator.token);
    // Ben's own line of a product at quantity 1. Ann hears of it (on PostgreSQL through NOTIFY,
    // so some time after Ben's answer); what she hears after that is what this test is about.
    const inCart = (await as.participant("GET", `/api/carts/${cartId}`)).json().cart
      .products as Array<{
      productId: { _id: string };
    }>;
    const products = (await as.participant("GET", "/api/products")).json().products as Array<{
      _id: string;
      stock: number;
    }>;
    const single = products.find(
      (p) => p.stock >= 1 && !inCart.some((l) => l.productId._id === p._id),
    )!;
    const added = await as.participant("POST", `/api/carts/${cartId}/product`, {
      productId: single._id,
    });
    expect(added.statusCode).toBe(200);
    const addedVersion = added.json().cart.version as number;
    await within(
      ann.next((m) => m.type === "cart.updated" && m.version === addedVersion),
      2_000,
    );
    // Its activity entry is announced too, by a NOTIFY of its own that may come second.
    await within(
      ann.next((m) => m.type === "activity.created"),
      2_000,
    );
    // And Ben's change is one of Ann's notifications, told after his answer.
    await within(
      ann.next((m) => m.type === "notification.created"),
      2_000,
    );
    const heardBefore = ann.messages.length;
    // Minus at 1 changes nothing, so there is nothing to tell.
    expect(
      (
        await as.participant("PATCH", `/api/carts/${cartId}/quantity`, {
          productId: single._id,
          change: -1,
        })
      ).statusCode,
    ).toBe(200);
    // Refused by role: a viewer may not add.
    expect(
      (await as.viewer("POST", `/api/carts/${cartId}/product`, { productId: product._id }))
        .statusCode,
    ).toBe(403);
    // Refused after the cart row was locked: more than the stock.
    expect(
      (
        await as.creator("POST", `/api/carts/${cartId}/product`, {
          productId: product._id,
          quantity: 99,
        })
      ).statusCode,
    ).toBe(409);
    await settle();
    expect(ann.messages.slice(heardBefore)).toEqual([]);
    ann.socket.close();
  });

  it("tells the creator of a join request and the invitee of an invite", async () => {
    const { signUp, client } = await import("../helpers.ts");
    const { people, as, sessionId, code } = world;
    const ann = await signedIn(people.creator.token);
    const eve = await signUp(t, "Eve");
    const eveLive = await signedIn(eve.token);
    const ben = await signedIn(people.participant.token);

    const join = await client(t, eve.token)("POST", "/api/sessions/join/code", {
      sessionCode: code,
      passcode: "tulip",
    });
    expect(join.statusCode).toBe(202);
    expect(
      await within(
        ann.next((m) => m.type === "joinrequest.created"),
        2_000,
      ),
    ).toMatchObject({
      sessionId,
    });

    const gus = await signUp(t, "Gus");
    const gusLive = await signedIn(gus.token);
    const invite = await as.creator("POST", "/api/sessions/invite", {
      sessionCode: code,
      emailOrUsername: gus.email,
      role: "participant",
    });
    expect(invite.statusCode).toBeLessThan(300);
    expect(
      await within(
        gusLive.next((m) => m.type === "invite.received"),
        2_000,
      ),
    ).toMatchObject({
      sessionId,
    });
    await settle();
    // Neither is about Ben, nor is a pending request told of its own session's changes.
    expect(ben.messages.map((m) => m.type)).toEqual(["ready"]);
    expect(eveLive.messages.map((m) => m.type)).toEqual(["ready"]);
    for (const p of [ann, eveLive, ben, gusLive]) p.socket.close();
  });

  it("tells the requester, live, that their join request was approved, rejected or withdrawn", async () => {
    const { signUp, client } = await import("../helpers.ts");
    const ann = await signUp(t, "Ann");
    const asAnn = client(t, ann.token);
    const { session } = (
      await asAnn("POST", "/api/sessions", {
        sessionName: "Family shop",
        sessionType: "Family",
        participants: "3+",
        passcode: "",
      })
    ).json();
    const kim = await signUp(t, "Kim");
    const asKim = client(t, kim.token);
    const kimLive = await signedIn(kim.token);
    const annLive = await signedIn(ann.token);
    const ask = async () =>
      expect(
        (
          await asKim("POST", "/api/sessions/join/code", {
            sessionCode: session.sessionCode,
            passcode: "",
          })
        ).statusCode,
      ).toBe(202);
    const told = (type: string, joinRequest: string) =>
      within(
        kimLive.next((m) => m.type === type && "joinRequest" in m && m.joinRequest === joinRequest),
        2_000,
      );

    await ask();
    await asKim("DELETE", `/api/sessions/${session._id}/leave`);
    expect(await told("member.left", "withdrawn")).toMatchObject({
      sessionId: session._id,
      userId: kim.userId,
    });

    await ask();
    await asAnn("POST", `/api/sessions/reject/${session.sessionCode}`, { userId: kim.userId });
    expect(await told("member.left", "rejected")).toMatchObject({
      sessionId: session._id,
      userId: kim.userId,
      version: expect.any(Number),
    });

    await ask();
    await asAnn("POST", `/api/sessions/approve/${session.sessionCode}`, { userId: kim.userId });
    // Kim is a member now, so hears it as one; Ann's other tabs hear the same event.
    for (const peer of [kimLive, annLive]) {
      expect(
        await within(
          peer.next((m) => m.type === "member.joined"),
          2_000,
        ),
      ).toMatchObject({ sessionId: session._id, userId: kim.userId, joinRequest: "approved" });
    }
    kimLive.socket.close();
    annLive.socket.close();
  });

  it("stops telling a member who left, and tells the rest", async () => {
    const { people, as, sessionId, cartId } = world;
    const ben = await signedIn(people.participant.token);
    const ann = await signedIn(people.creator.token);
    expect(
      (await as.participant("DELETE", `/api/sessions/${sessionId}/leave?lines=remove`)).statusCode,
    ).toBe(200);
    expect(
      await within(
        ben.next((m) => m.type === "member.left"),
        2_000,
      ),
    ).toMatchObject({
      sessionId,
    });
    expect(
      await within(
        ann.next((m) => m.type === "member.left"),
        2_000,
      ),
    ).toMatchObject({
      sessionId,
    });
    const product = await someProduct();
    expect(
      (await as.creator("POST", `/api/carts/${cartId}/product`, { productId: product._id }))
        .statusCode,
    ).toBe(200);
    await within(
      ann.next((m) => m.type === "cart.updated"),
      2_000,
    );
    await settle();
    expect(ben.messages.map((m) => m.type)).toEqual(["ready", "member.left"]);
    ben.socket.close();
    ann.socket.close();
  });

  it("tells members when the session ends", async () => {
    const { people, as, sessionId } = world;
    const vic = await signedIn(people.viewer.token);
    const end = await as.creator("PUT", `/api/sessions/${sessionId}/end`);
    expect(end.statusCode).toBe(200);
    expect(
      await within(
        vic.next((m) => m.type === "session.ended"),
        2_000,
      ),
    ).toMatchObject({
      sessionId,
    });
    vic.socket.close();
  });
});
