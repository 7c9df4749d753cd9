/**
 * Look-only links (PGlite and PostgreSQL): the creator makes one, anyone with it sees the cart's
 * list and total without an account, and nothing about the members; revoking it ends the view at
 * once, the live socket included. Who may make and revoke links is walked by
 * authorization.test.ts; here, what the link shows, its bad input and its live socket.
 */
import { LiveClose, type LookView } from "@cartner/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, filledSession, type TestApp } from "../helpers.ts";
import { listenForLive, open, settle, within, type Peer } from "../live-peers.ts";

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await listenForLive(t);
});
afterAll(async () => t.close());

type Fixture = Awaited<ReturnType<typeof filledSession>>;
type Link = { _id: string; url: string; token: string; role: string; lookOnly: boolean };

async function lookLink(f: Fixture, body: object = { lookOnly: true, expiresInHours: 24 }) {
  const res = await f.as.creator("POST", `/api/sessions/${f.sessionId}/links`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().link as Link;
}

const look = (token: string) => t.app.inject({ method: "GET", url: `/api/look/${token}` });

/** A look-only socket that was answered ready (and its first view). */
async function lookSocket(token: string): Promise<Peer> {
  const peer = open(`${base}?look=${token}`);
  await within(
    peer.next((m) => m.type === "ready"),
    3_000,
  );
  return peer;
}

describe("GET /api/look/:token", () => {
  it("shows the lines (name, quantity, picture, note) and the total, and nothing about the members", async () => {
    const f = await filledSession(t);
    // A free line with a note: the shopper reads it.
    const noted = await f.as.participant("POST", `/api/carts/${f.cartId}/free-lines`, {
      name: "Birthday candles",
      note: "blue ones",
    });
    expect(noted.statusCode, noted.body).toBe(200);
    const link = await lookLink(f);
    expect(link).toMatchObject({ role: "viewer", lookOnly: true, maxUses: null, uses: 0 });
    expect(link.url).toMatch(new RegExp(`/look/${link.token}$`));

    const res = await look(link.token);
    expect(res.statusCode, res.body).toBe(200);
    const view: LookView = res.json();
    expect(Object.keys(view).sort()).toEqual(["lines", "sessionName", "total", "updatedAt"]);
    expect(view.sessionName).toBe("Weekend groceries");
    const cart = (await f.as.creator("GET", `/api/carts/${f.cartId}`)).json().cart;
    expect(view.lines).toEqual(
      cart.products.map(
        (l: {
          productId: { name: string; imageUrl: string };
          quantity: number;
          note: unknown;
        }) => ({
          name: l.productId.name,
          quantity: l.quantity,
          imageUrl: l.productId.imageUrl,
          note: l.note,
        }),
      ),
    );
    expect(view.lines.find((l) => l.name === "Birthday candles")?.note).toBe("blue ones");
    for (const line of view.lines)
      expect(Object.keys(line).sort()).toEqual(["imageUrl", "name", "note", "quantity"]);
    expect(view.total).toBe(cart.totalPrice);
    expect(view.updatedAt).toBe(cart.updatedAt);

    // Nothing per member: no email, no member's id or name, no share, no code or passcode.
    for (const [role, person] of Object.entries(f.people)) {
      expect(res.body, role).not.toContain(person.email);
      expect(res.body, role).not.toContain(person.userId);
    }
    for (const name of ["Ann", "Ben", "Vic", "Pat", "Sam"]) expect(res.body).not.toContain(name);
    for (const share of cart.split as { total: number }[]) {
      if (share.total !== view.total) expect(res.body).not.toContain(`:${share.total},`);
    }
    for (const key of ["userId", "addedBy", "split", "email", "budget", "sessionId", "_id"]) {
      expect(res.body).not.toContain(`"${key}"`);
    }
    expect(res.body).not.toContain(f.code);
    expect(res.body).not.toContain("tulip");
    // Public: no account asked, and none used if sent.
    expect(res.headers["cache-control"] ?? "").not.toMatch(/public/);
  });

  it("answers 404 for a revoked or an unknown link, and for an ended session", async () => {
    const f = await filledSession(t);
    const revoked = await lookLink(f);
    expect((await look(revoked.token)).statusCode).toBe(200);
    const res = await f.as.creator("DELETE", `/api/sessions/${f.sessionId}/links/${revoked._id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().link).toMatchObject({ revoked: true, lookOnly: true });
    const gone = await look(revoked.token);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toMatch(/does not work any more/);

    expect((await look("A".repeat(22))).statusCode).toBe(404);
    expect((await look("not-a-token")).statusCode).toBe(404);
    expect((await look("x".repeat(65))).statusCode).toBe(400);

    const ending = await lookLink(f);
    expect((await look(ending.token)).statusCode).toBe(200);
    expect((await f.as.creator("PUT", `/api/sessions/${f.sessionId}/end`)).statusCode).toBe(200);
    expect((await look(ending.token)).statusCode).toBe(404);
  });

  it("answers 404 once the link has expired", async () => {
    const f = await filledSession(t);
    const expiring = await lookLink(f, { lookOnly: true, expiresInHours: 1 });
    expect((await look(expiring.token)).statusCode).toBe(200);
    // Last: the members' own tokens expire too.
    t.clock.advance(3_600_000);
    expect((await look(expiring.token)).statusCode).toBe(404);
  });

  it("is not a joining link, and a joining link shows no list", async () => {
    const f = await filledSession(t);
    const lookOnly = await lookLink(f);
    expect(
      (await t.app.inject({ method: "GET", url: `/api/invite/${lookOnly.token}` })).statusCode,
    ).toBe(404);
    expect((await f.as.stranger("POST", `/api/invite/${lookOnly.token}/accept`)).statusCode).toBe(
      404,
    );
    const joining = await lookLink(f, { role: "viewer", expiresInHours: 1, maxUses: 3 });
    expect(joining.lookOnly).toBe(false);
    expect((await look(joining.token)).statusCode).toBe(404);
  });
});

describe("POST /api/sessions/:id/links with lookOnly", () => {
  it("refuses a participant role, a use limit, or a joining link without them, naming the field", async () => {
    const f = await filledSession(t);
    const post = (body: object) => f.as.creator("POST", `/api/sessions/${f.sessionId}/links`, body);
    const participant = await post({ lookOnly: true, role: "participant", expiresInHours: 1 });
    expect(participant.statusCode).toBe(400);
    expect(participant.json().fields.role).toMatch(/look-only link only shows the list/);
    const uses = await post({ lookOnly: true, expiresInHours: 1, maxUses: 3 });
    expect(uses.statusCode).toBe(400);
    expect(uses.json().fields).toHaveProperty("maxUses");
    const noRole = await post({ expiresInHours: 1, maxUses: 3 });
    expect(noRole.statusCode).toBe(400);
    expect(noRole.json().fields).toHaveProperty("role");
    expect((await post({ lookOnly: "yes", expiresInHours: 1 })).statusCode).toBe(400);
    // The role may be said, if it is viewer.
    expect((await post({ lookOnly: true, role: "viewer", expiresInHours: 1 })).statusCode).toBe(
      201,
    );
  });

  it("lets only the creator make or revoke one", async () => {
    const f = await filledSession(t);
    const link = await lookLink(f);
    for (const role of ["participant", "viewer", "pending", "stranger"] as const) {
      const made = await f.as[role]("POST", `/api/sessions/${f.sessionId}/links`, {
        lookOnly: true,
        expiresInHours: 1,
      });
      expect(made.statusCode, role).toBe(role === "participant" || role === "viewer" ? 403 : 404);
      const revoked = await f.as[role]("DELETE", `/api/sessions/${f.sessionId}/links/${link._id}`);
      expect(revoked.statusCode, role).toBe(
        role === "participant" || role === "viewer" ? 403 : 404,
      );
    }
    expect((await look(link.token)).statusCode).toBe(200);
  });
});

describe("GET /api/live?look=", () => {
  it("sends the view after each change of the cart, nothing per member, and closes at once on revoke", async () => {
    const f = await filledSession(t);
    const link = await lookLink(f);
    const peer = await lookSocket(link.token);
    const first = await peer.next((m) => m.type === "look.view");
    expect(first).toEqual({ type: "look.view", view: (await look(link.token)).json() });

    const added = await f.as.participant("POST", `/api/carts/${f.cartId}/free-lines`, {
      name: "Sparklers",
    });
    expect(added.statusCode, added.body).toBe(200);
    const changed = await within(
      peer.next((m) => m.type === "look.view" && m.view.lines.some((l) => l.name === "Sparklers")),
      3_000,
    );
    expect(changed.type).toBe("look.view");
    // Only views: no member's event, no id of anyone.
    await settle();
    expect(peer.messages.every((m) => m.type === "ready" || m.type === "look.view")).toBe(true);
    const heard = JSON.stringify(peer.messages);
    for (const person of Object.values(f.people)) {
      expect(heard).not.toContain(person.userId);
      expect(heard).not.toContain(person.email);
    }

    const revoked = await f.as.creator("DELETE", `/api/sessions/${f.sessionId}/links/${link._id}`);
    expect(revoked.statusCode).toBe(200);
    expect((await within(peer.closed, 2_000)).code).toBe(LiveClose.LINK_GONE);
  });

  it("closes with 4404 a link that does not work, and every look socket when the session ends", async () => {
    const f = await filledSession(t);
    const unknown = open(`${base}?look=${"B".repeat(22)}`);
    expect((await within(unknown.closed, 3_000)).code).toBe(LiveClose.LINK_GONE);
    expect(unknown.messages).toEqual([]);

    const link = await lookLink(f);
    const other = await lookLink(f);
    const peers = [await lookSocket(link.token), await lookSocket(other.token)];
    expect((await f.as.creator("PUT", `/api/sessions/${f.sessionId}/end`)).statusCode).toBe(200);
    for (const peer of peers) {
      expect((await within(peer.closed, 2_000)).code).toBe(LiveClose.LINK_GONE);
    }
  });

  it("leaves the other links' sockets open when one is revoked", async () => {
    const f = await filledSession(t);
    const [kept, revoked] = [await lookLink(f), await lookLink(f)];
    const keptPeer = await lookSocket(kept.token);
    const revokedPeer = await lookSocket(revoked.token);
    await f.as.creator("DELETE", `/api/sessions/${f.sessionId}/links/${revoked._id}`);
    expect((await within(revokedPeer.closed, 2_000)).code).toBe(LiveClose.LINK_GONE);
    await settle();
    expect(keptPeer.socket.readyState).toBe(keptPeer.socket.OPEN);
    keptPeer.socket.close();
  });
});
