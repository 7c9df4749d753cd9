/**
 * Invitations and members: invite links, invite mails, removing a member, handing a
 * session over and rotating its code (PGlite and PostgreSQL). Who may call each route is walked by
 * authorization.test.ts; here, what each does, its races and its bad input.
 */
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devMails, inviteLinks } from "../../src/db/schema.ts";
import {
  client,
  createTestApp,
  sessionWithEveryRole,
  signUp,
  uniqueEmail,
  type TestApp,
} from "../helpers.ts";
import { listenForLive, signedIn } from "../live-peers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

type Link = { _id: string; url: string; token: string; uses: number; revoked: boolean };

async function newLink(
  f: Awaited<ReturnType<typeof sessionWithEveryRole>>,
  body: object = { role: "participant", expiresInHours: 24, maxUses: 5 },
): Promise<Link> {
  const res = await f.as.creator("POST", `/api/sessions/${f.sessionId}/links`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().link;
}

const publicGet = (url: string) => t.app.inject({ method: "GET", url });

describe("invite links", () => {
  it("shows what it leads to without the code, makes a member with its role, and counts its uses", async () => {
    const f = await sessionWithEveryRole(t);
    const link = await newLink(f, { role: "viewer", expiresInHours: 2, maxUses: 2 });
    expect(link.url).toMatch(new RegExp(`/join/${link.token}$`));
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const preview = await publicGet(`/api/invite/${link.token}`);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({
      sessionName: "Weekend groceries",
      creatorName: "Ann",
      role: "viewer",
    });
    expect(preview.body).not.toContain(f.code);
    expect(preview.body).not.toContain("tulip");

    const zoe = await signUp(t, "Zoe");
    const accepted = await client(t, zoe.token)("POST", `/api/invite/${link.token}/accept`);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ sessionId: f.sessionId });
    const session = (await client(t, zoe.token)("GET", `/api/sessions/${f.sessionId}`)).json()
      .session;
    expect(session.invitedUsers.find((m: { userId: string }) => m.userId === zoe.userId).role).toBe(
      "viewer",
    );
    // Twice: 409, and the use is not spent.
    expect(
      (await client(t, zoe.token)("POST", `/api/invite/${link.token}/accept`)).statusCode,
    ).toBe(409);
    // A pending requester becomes the link's role; the creator's list shows the uses.
    expect((await f.as.pending("POST", `/api/invite/${link.token}/accept`)).statusCode).toBe(200);
    const [listed] = (await f.as.creator("GET", `/api/sessions/${f.sessionId}/links`)).json().links;
    expect(listed).toMatchObject({ _id: link._id, uses: 2, token: link.token, revoked: false });
  });

  it("50 parallel accepts of a 5-use link make exactly 5 members", async () => {
    const f = await sessionWithEveryRole(t);
    const link = await newLink(f, { role: "participant", expiresInHours: 1, maxUses: 5 });
    const people = [];
    for (let i = 0; i < 50; i++) people.push(await signUp(t, `P${i}`));
    const answers = await Promise.all(
      people.map((p) => client(t, p.token)("POST", `/api/invite/${link.token}/accept`)),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 410)).toHaveLength(45);
    for (const a of answers.filter((x) => x.statusCode === 410)) {
      expect(a.json().code).toBe("LINK_USED_UP");
    }
    const session = (await f.as.creator("GET", `/api/sessions/${f.sessionId}`)).json().session;
    const joined = session.invitedUsers.filter((m: { name: string }) => /^P\d+$/.test(m.name));
    expect(joined).toHaveLength(5);
    const [listed] = (await f.as.creator("GET", `/api/sessions/${f.sessionId}/links`)).json().links;
    expect(listed.uses).toBe(5);
  });

  it("says why a link no longer works: expired, used up, revoked (410), unknown or malformed (404)", async () => {
    const f = await sessionWithEveryRole(t);
    const sam = client(t, f.people.stranger.token);
    const expired = await newLink(f, { role: "participant", expiresInHours: 1, maxUses: 5 });
    const usedUp = await newLink(f, { role: "participant", expiresInHours: 24, maxUses: 1 });
    const revoked = await newLink(f, { role: "participant", expiresInHours: 24, maxUses: 5 });
    const zed = await signUp(t, "Zed");
    expect(
      (await client(t, zed.token)("POST", `/api/invite/${usedUp.token}/accept`)).statusCode,
    ).toBe(200);
    const off = await f.as.creator("DELETE", `/api/sessions/${f.sessionId}/links/${revoked._id}`);
    expect(off.statusCode).toBe(200);
    expect(off.json().link.revoked).toBe(true);
    // An hour later for this link (moving the clock would expire the tokens too).
    await t.database.db
      .update(inviteLinks)
      .set({ expiresAt: new Date(t.clock.now().getTime() - 1000) })
      .where(eq(inviteLinks.id, expired._id));
    for (const [link, code] of [
      [expired, "LINK_EXPIRED"],
      [usedUp, "LINK_USED_UP"],
      [revoked, "LINK_REVOKED"],
    ] as const) {
      const seen = await publicGet(`/api/invite/${link.token}`);
      expect(seen.statusCode, code).toBe(410);
      expect(seen.json().code).toBe(code);
      const tried = await sam("POST", `/api/invite/${link.token}/accept`);
      expect(tried.statusCode).toBe(410);
      expect(tried.json().code).toBe(code);
    }
    for (const token of ["AAAAAAAAAAAAAAAAAAAAAA", "short", "a%00b", "x".repeat(64)]) {
      expect((await publicGet(`/api/invite/${token}`)).statusCode, token).toBe(404);
      expect((await sam("POST", `/api/invite/${token}/accept`)).statusCode, token).toBe(404);
    }
    const huge = await publicGet(`/api/invite/${"x".repeat(10_000)}`);
    expect([400, 404, 414]).toContain(huge.statusCode);
    // Nobody joined through any of it.
    const session = (await f.as.creator("GET", `/api/sessions/${f.sessionId}`)).json().session;
    expect(session.invitedUsers.map((m: { name: string }) => m.name).sort()).toEqual(
      ["Ann", "Ben", "Pat", "Vic", "Zed"].sort(),
    );
  });

  it("refuses bad link settings with a 400 naming the field", async () => {
    const f = await sessionWithEveryRole(t);
    for (const body of [
      { role: "creator", expiresInHours: 1, maxUses: 1 },
      { role: "viewer", expiresInHours: 0, maxUses: 1 },
      { role: "viewer", expiresInHours: 721, maxUses: 1 },
      { role: "viewer", expiresInHours: 1, maxUses: 101 },
      { role: "viewer", expiresInHours: 1.5, maxUses: 1 },
    ]) {
      const res = await f.as.creator("POST", `/api/sessions/${f.sessionId}/links`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().fields ?? {}).length).toBeGreaterThan(0);
    }
  });
});

describe("invites by email", () => {
  it("an invitee who already joined through a link cannot accept the invite too (409, no second join)", async () => {
    const f = await sessionWithEveryRole(t);
    const zoe = await signUp(t, "Zoe");
    const zoeAs = client(t, zoe.token);
    const invited = await f.as.creator("POST", "/api/sessions/invite", {
      sessionCode: f.code,
      emailOrUsername: zoe.email,
      role: "participant",
    });
    expect(invited.statusCode).toBe(201);
    const link = await newLink(f, { role: "viewer", expiresInHours: 1, maxUses: 1 });
    expect((await zoeAs("POST", `/api/invite/${link.token}/accept`)).statusCode).toBe(200);

    const accepted = await zoeAs("POST", "/api/sessions/accinvite", { sessionCode: f.code });
    expect(accepted.statusCode).toBe(409);
    expect(accepted.json()).toEqual({
      code: "CONFLICT",
      message: "You are already in this session.",
      requestId: accepted.headers["x-request-id"],
    });
    const session = (await zoeAs("GET", `/api/sessions/${f.sessionId}`)).json().session;
    expect(session.invitedUsers.find((m: { userId: string }) => m.userId === zoe.userId).role).toBe(
      "viewer",
    );
    const { events } = (
      await f.as.creator("GET", `/api/sessions/${f.sessionId}/activity?limit=200`)
    ).json();
    const joins = events.filter(
      (e: { type: string; actor: { _id: string } }) =>
        e.type === "member.joined" && e.actor._id === zoe.userId,
    );
    expect(joins).toHaveLength(1);
    expect(joins[0]).toMatchObject({ via: "link", role: "viewer" });
    // Nothing is left for her to answer: the invite no longer shows among hers.
    const mine = (await zoeAs("GET", "/api/sessions/myinvites")).json().invites;
    expect(mine.map((i: { sessionCode: string }) => i.sessionCode)).not.toContain(f.code);
  });
});

describe("invite mails", () => {
  it("mails every invite: to an account, the sessions page; to a new address, sign-up", async () => {
    const f = await sessionWithEveryRole(t);
    const newcomer = uniqueEmail("newcomer");
    const kim = await signUp(t, "Kim");
    for (const email of [newcomer, kim.email]) {
      const res = await f.as.creator("POST", "/api/sessions/invite", {
        sessionCode: f.code,
        emailOrUsername: email,
        role: "participant",
      });
      expect(res.statusCode).toBe(201);
    }
    // Each invite's mail is a job on the mail queue, sent with the invite.
    await t.app.idle();
    const mailTo = async (email: string) => {
      const [mail] = await t.database.db
        .select()
        .from(devMails)
        .where(eq(devMails.recipient, email))
        .orderBy(desc(devMails.createdAt));
      expect(mail?.subject).toContain("invited you");
      return mail!;
    };
    const toNewcomer = await mailTo(newcomer);
    expect(toNewcomer.subject).toBe("Ann invited you to “Weekend groceries” on Cartner");
    expect(toNewcomer.text).toContain(`/register?email=${encodeURIComponent(newcomer)}`);
    const toKim = await mailTo(kim.email);
    expect(toKim.text).toContain("/sessions");
    expect(toKim.text).not.toContain("/register");
  });
});

describe("removing, handing over, rotating", () => {
  it("a removed member loses access at once; their socket hears the removal and then nothing", async () => {
    const f = await sessionWithEveryRole(t);
    const [product] = (await f.as.creator("GET", "/api/products?limit=1")).json().products;
    await f.as.participant("POST", `/api/carts/${f.cartId}/product`, { productId: product._id });
    const base = await listenForLive(t);
    const ben = await signedIn(base, f.people.participant.token);

    const removed = await f.as.creator(
      "DELETE",
      `/api/sessions/${f.sessionId}/members/${f.people.participant.userId}?lines=remove`,
    );
    expect(removed.statusCode).toBe(200);
    const told = await ben.next((m) => m.type === "member.removed");
    expect(told).toMatchObject({ sessionId: f.sessionId, userId: f.people.participant.userId });
    // His one notice of the removal, told after the answer.
    await ben.next((m) => m.type === "notification.created");
    const heard = ben.messages.length;
    // The session goes on without him: a change to it reaches the others, not him.
    await f.as.creator("POST", `/api/carts/${f.cartId}/product`, { productId: product._id });
    await f.as.creator("PATCH", `/api/sessions/${f.sessionId}`, { budget: 99 });
    await new Promise((r) => setTimeout(r, 200));
    expect(ben.messages.slice(heard)).toEqual([]);
    expect((await f.as.participant("GET", `/api/sessions/${f.sessionId}`)).statusCode).toBe(404);
    expect((await f.as.participant("GET", `/api/carts/${f.cartId}`)).statusCode).toBe(404);
    expect(
      (await f.as.participant("POST", `/api/carts/${f.cartId}/product`, { productId: product._id }))
        .statusCode,
    ).toBe(404);
    // His line went with him (members-leave.test.ts has the rest of that rule).
    const cart = (await f.as.creator("GET", `/api/carts/${f.cartId}`)).json().cart;
    expect(cart.products.map((l: { addedBy: { name: string } }) => l.addedBy.name)).toEqual([
      "Ann",
    ]);
    ben.socket.close();
  });

  it("refuses removing or demoting oneself, and strangers; removing twice is 404", async () => {
    const f = await sessionWithEveryRole(t);
    const self = await f.as.creator(
      "DELETE",
      `/api/sessions/${f.sessionId}/members/${f.people.creator.userId}`,
    );
    expect(self.statusCode).toBe(409);
    const demote = await f.as.creator(
      "PATCH",
      `/api/sessions/${f.sessionId}/members/${f.people.creator.userId}`,
      { role: "viewer" },
    );
    expect(demote.statusCode).toBe(409);
    const stranger = await f.as.creator(
      "DELETE",
      `/api/sessions/${f.sessionId}/members/${f.people.stranger.userId}`,
    );
    expect(stranger.statusCode).toBe(404);
    const url = `/api/sessions/${f.sessionId}/members/${f.people.viewer.userId}`;
    expect((await f.as.creator("DELETE", url)).statusCode).toBe(200);
    expect((await f.as.creator("DELETE", url)).statusCode).toBe(404);
  });

  it("hands the session to a participant only; the old creator may then leave", async () => {
    const f = await sessionWithEveryRole(t);
    const url = `/api/sessions/${f.sessionId}/transfer`;
    for (const [who, status] of [
      [f.people.viewer.userId, 409],
      [f.people.pending.userId, 409],
      [f.people.stranger.userId, 404],
      [f.people.creator.userId, 409],
    ] as const) {
      expect((await f.as.creator("POST", url, { userId: who })).statusCode, who).toBe(status);
    }
    expect((await f.as.creator("POST", url, { userId: "nope" })).statusCode).toBe(400);
    const handed = await f.as.creator("POST", url, { userId: f.people.participant.userId });
    expect(handed.statusCode).toBe(200);
    const session = handed.json().session;
    expect(session.creator._id).toBe(f.people.participant.userId);
    const roles = Object.fromEntries(
      session.invitedUsers.map((m: { name: string; role: string }) => [m.name, m.role]),
    );
    expect(roles).toMatchObject({ Ann: "participant", Ben: "creator" });
    // Ann is a participant now: she may not hand it back, but she may leave.
    expect((await f.as.creator("POST", url, { userId: f.people.creator.userId })).statusCode).toBe(
      403,
    );
    expect((await f.as.creator("DELETE", `/api/sessions/${f.sessionId}/leave`)).statusCode).toBe(
      200,
    );
    expect((await f.as.participant("PUT", `/api/sessions/${f.sessionId}/end`)).statusCode).toBe(
      200,
    );
  });

  it("rotates the code and passcode: the old ones stop working, members stay", async () => {
    const f = await sessionWithEveryRole(t);
    const rotated = await f.as.creator("POST", `/api/sessions/${f.sessionId}/rotate-code`);
    expect(rotated.statusCode).toBe(200);
    const session = rotated.json().session;
    expect(session.sessionCode).not.toBe(f.code);
    expect(session.passcode).not.toBe("tulip");
    expect(session.passcode).toMatch(/^[a-z2-9]{6}$/);
    expect(session.invitedUsers).toHaveLength(4);
    const kim = await signUp(t, "Kim");
    const kimAs = client(t, kim.token);
    const old = await kimAs("POST", "/api/sessions/join/code", {
      sessionCode: f.code,
      passcode: "tulip",
    });
    expect(old.statusCode).toBe(403);
    const fresh = await kimAs("POST", "/api/sessions/join/code", {
      sessionCode: session.sessionCode,
      passcode: session.passcode,
    });
    expect(fresh.statusCode).toBe(202);
    expect((await f.as.viewer("GET", `/api/sessions/${f.sessionId}`)).statusCode).toBe(200);
  });
});
