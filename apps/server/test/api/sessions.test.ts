import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carts, sessionMembers, sessions } from "../../src/db/schema.ts";
import {
  client,
  createTestApp,
  sessionWithEveryRole,
  signUp,
  uniqueEmail,
  type Client,
  type TestApp,
  withoutRequestId,
} from "../helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const newSession = {
  sessionName: "  Dinner party  ",
  sessionType: "Couple",
  participants: "2",
  passcode: " rose ",
  budget: 80.5,
};

describe("creating sessions", () => {
  it("makes the caller creator, with a cart, a code and trimmed fields; body creator is ignored", async () => {
    const ann = await signUp(t, "Ann");
    const eve = await signUp(t, "Eve");
    const res = await client(t, ann.token)("POST", "/api/sessions", {
      ...newSession,
      creator: eve.userId,
    });
    expect(res.statusCode).toBe(201);
    const { session, message } = res.json();
    expect(message).toBe("Session created");
    expect(session.id).toBe(session._id);
    expect(session).toMatchObject({
      sessionName: "Dinner party",
      sessionType: "Couple",
      participants: "2",
      status: "active",
      budget: 80.5,
      passcode: "rose",
      hasPasscode: true,
      creator: { _id: ann.userId, name: "Ann" },
      cart: { totalPrice: 0, itemCount: 0 },
      version: 1,
    });
    expect(session.sessionCode).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(session.invitedUsers).toEqual([
      {
        userId: ann.userId,
        name: "Ann",
        avatar: `http://localhost:3000/api/users/${ann.userId}/avatar`,
        role: "creator",
        budget: null,
        ready: false,
        shareChanged: false,
        budgetMode: "warn",
        child: false,
      },
    ]);
    // A Couple's preset: an equal split, fees equal, both may check out (presets.test.ts).
    expect(session.splitPolicy).toEqual({ mode: "equal", weights: {}, fees: "equal" });
    expect(session.checkoutBy).toBe("members");
    const [cart] = await t.database.db.select().from(carts).where(eq(carts.sessionId, session._id));
    expect(cart!.id).toBe(session.cartId);
    const [row] = await t.database.db.select().from(sessions).where(eq(sessions.id, session._id));
    expect(row!.budgetCents).toBe(8050);
  });

  it("gives every session its own code", async () => {
    const ann = client(t, (await signUp(t)).token);
    const codes = new Set<string>();
    for (let i = 0; i < 10; i++)
      codes.add((await ann("POST", "/api/sessions", newSession)).json().session.sessionCode);
    expect(codes.size).toBe(10);
  });

  it.each([
    [{ ...newSession, sessionName: "   " }, "sessionName"],
    [{ ...newSession, sessionType: "Party" }, "sessionType"],
    [{ ...newSession, participants: "4" }, "participants"],
    [{ ...newSession, budget: -1 }, "budget"],
    [{ ...newSession, budget: 10.005 }, "budget"],
    [{ ...newSession, budget: "100" }, "budget"],
    [{ ...newSession, status: "ended" }, "status"],
  ])("refuses bad input %#", async (body, field) => {
    const res = await client(t, (await signUp(t)).token)("POST", "/api/sessions", body);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields)).toContain(field);
  });
});

describe("lists", () => {
  it("my lists active and ended, newest first; actives and sync only active", async () => {
    const ann = client(t, (await signUp(t)).token);
    const a = (await ann("POST", "/api/sessions", { ...newSession, sessionName: "A" })).json()
      .session;
    const b = (await ann("POST", "/api/sessions", { ...newSession, sessionName: "B" })).json()
      .session;
    t.clock.advance(1000);
    await ann("PUT", `/api/sessions/${a._id}/end`);
    const my = (await ann("GET", "/api/sessions/my")).json().sessions;
    expect(my.map((s: { sessionName: string }) => s.sessionName)).toEqual(["A", "B"]);
    expect(my[0].status).toBe("ended");
    const actives = (await ann("GET", "/api/sessions/mysessions/actives")).json().sessions;
    expect(actives.map((s: { _id: string }) => s._id)).toEqual([b._id]);
    const sync = (await ann("GET", "/api/sessions/sync")).json();
    expect(sync.sessions.map((s: { _id: string }) => s._id)).toEqual([b._id]);
    expect(typeof sync.version).toBe("number");
  });

  it("are empty arrays for a new user", async () => {
    const zed = client(t, (await signUp(t)).token);
    for (const url of [
      "/api/sessions/my",
      "/api/sessions/mysessions/actives",
      "/api/sessions/myinvites",
    ]) {
      const res = await zed("GET", url);
      expect(res.statusCode).toBe(200);
      expect(Object.values(res.json())[0]).toEqual([]);
    }
  });
});

describe("joining by code and passcode", () => {
  it("creates a pending request the creator approves; the member then sees the session", async () => {
    const { as, people, sessionId, code } = await sessionWithEveryRole(t);
    const lobby = (await as.participant("GET", `/api/sessions/${sessionId}`)).json().session;
    const roles = Object.fromEntries(
      lobby.invitedUsers.map((m: { name: string; role: string }) => [m.name, m.role]),
    );
    // Pat's pending request is the creator's business: members do not see it in the member list.
    expect(roles).toEqual({ Ann: "creator", Ben: "participant", Vic: "viewer" });
    expect(lobby.passcode).toBe("tulip");
    const requests = (
      await as.creator("POST", "/api/sessions/joinrequests", { sessionCode: code })
    ).json().requests;
    expect(requests).toEqual([
      expect.objectContaining({
        userId: people.pending.userId,
        email: people.pending.email,
        name: "Pat",
      }),
    ]);
  });

  it("accepts codes in any case and a session without passcode by code alone", async () => {
    const ann = client(t, (await signUp(t)).token);
    const s = (await ann("POST", "/api/sessions", { ...newSession, passcode: "" })).json().session;
    expect(s.hasPasscode).toBe(false);
    const ben = client(t, (await signUp(t)).token);
    const res = await ben("POST", "/api/sessions/join/code", {
      sessionCode: s.sessionCode.toLowerCase(),
      passcode: "",
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: "Join request sent", sessionId: s._id });
  });

  it("answers a wrong code and a wrong passcode alike", async () => {
    const { code } = await sessionWithEveryRole(t);
    const eve = client(t, (await signUp(t)).token);
    const wrongPass = await eve("POST", "/api/sessions/join/code", {
      sessionCode: code,
      passcode: "nope",
    });
    const wrongCode = await eve("POST", "/api/sessions/join/code", {
      sessionCode: "ZZZZZZZZ",
      passcode: "tulip",
    });
    expect(wrongPass.statusCode).toBe(403);
    expect(wrongCode.statusCode).toBe(403);
    expect(withoutRequestId(wrongPass.json())).toEqual(withoutRequestId(wrongCode.json()));
    expect(wrongPass.json().message).toBe("Invalid session code or passcode");
  });

  it("refuses to join twice (409), also under concurrency", async () => {
    const ann = client(t, (await signUp(t)).token);
    const s = (await ann("POST", "/api/sessions", newSession)).json().session;
    const ben = await signUp(t, "Ben");
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        client(t, ben.token)("POST", "/api/sessions/join/code", {
          sessionCode: s.sessionCode,
          passcode: "rose",
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([202, 409, 409, 409, 409]);
    const rows = await t.database.db
      .select()
      .from(sessionMembers)
      .where(eq(sessionMembers.sessionId, s._id));
    expect(rows).toHaveLength(2);
  });

  it("approves once under concurrent approvals, by userId, email or SPEC's { userId: { email } }", async () => {
    const annUser = await signUp(t);
    const ann = client(t, annUser.token);
    const s = (await ann("POST", "/api/sessions", newSession)).json().session;
    const ben = await signUp(t, "Ben");
    await client(t, ben.token)("POST", "/api/sessions/join/code", {
      sessionCode: s.sessionCode,
      passcode: "rose",
    });
    const answers = await Promise.all([
      ann("POST", `/api/sessions/approve/${s.sessionCode}`, { userId: ben.userId }),
      ann("POST", `/api/sessions/approve/${s.sessionCode}`, { email: ben.email }),
      ann("POST", `/api/sessions/approve/${s.sessionCode}`, { userId: { email: ben.email } }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 404, 404]);
    const members = await t.database.db
      .select()
      .from(sessionMembers)
      .where(eq(sessionMembers.sessionId, s._id));
    expect(members.map((m) => m.role).sort()).toEqual(["creator", "participant"]);
  });

  it("rejecting removes the request", async () => {
    const { as, people, code, sessionId } = await sessionWithEveryRole(t);
    const res = await as.creator("POST", `/api/sessions/reject/${code}`, {
      userId: { email: people.pending.email },
    });
    expect(res.statusCode).toBe(200);
    expect((await as.pending("GET", `/api/sessions/${sessionId}`)).statusCode).toBe(404);
    expect(
      (await as.creator("POST", "/api/sessions/joinrequests", { sessionCode: code })).json()
        .requests,
    ).toEqual([]);
  });

  it("rate-limits guessing per user", async () => {
    const eve = client(t, (await signUp(t)).token);
    const statuses = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (await eve("POST", "/api/sessions/join/code", { sessionCode: `GUESS${i}`, passcode: "x" }))
          .statusCode,
      );
    }
    expect(statuses.slice(0, 10).every((s) => s === 403)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe("my own join requests", () => {
  const joinList = (as: Client) =>
    as("GET", "/api/sessions/join-requests/mine").then((res) => {
      expect(res.statusCode).toBe(200);
      return res.json().requests as { sessionId: string; sessionName: string }[];
    });

  it("lists only the caller's requests still waiting in active sessions, newest first", async () => {
    const { as, people, sessionId } = await sessionWithEveryRole(t);
    const cleo = await signUp(t, "Cleo");
    const asCleo = client(t, cleo.token);
    /** Cleo's session that Pat asks to join (and Sam too, whose request is not Pat's). */
    const ask = async (name: string, who: Client[] = [as.pending]) => {
      t.clock.advance(1000);
      const { session } = (
        await asCleo("POST", "/api/sessions", { ...newSession, sessionName: name, passcode: "" })
      ).json();
      for (const person of who) {
        const res = await person("POST", "/api/sessions/join/code", {
          sessionCode: session.sessionCode,
          passcode: "",
        });
        expect(res.statusCode).toBe(202);
      }
      return session as { _id: string; sessionCode: string };
    };
    const waiting = await ask("Waiting", [as.pending, as.stranger]);
    const approved = await ask("Approved");
    await asCleo("POST", `/api/sessions/approve/${approved.sessionCode}`, {
      userId: people.pending.userId,
    });
    const declined = await ask("Declined");
    await asCleo("POST", `/api/sessions/reject/${declined.sessionCode}`, {
      userId: people.pending.userId,
    });
    const ended = await ask("Ended");
    await asCleo("PUT", `/api/sessions/${ended._id}/end`);

    const res = await as.pending("GET", "/api/sessions/join-requests/mine");
    expect(res.statusCode).toBe(200);
    // Newest first: Cleo's "Waiting" was asked after Ann's session.
    expect(res.json()).toEqual({
      requests: [
        {
          sessionId: waiting._id,
          sessionName: "Waiting",
          creator: { _id: cleo.userId, name: "Cleo" },
          requestedAt: expect.any(String),
        },
        {
          sessionId,
          sessionName: "Weekend groceries",
          creator: { _id: people.creator.userId, name: "Ann" },
          requestedAt: expect.any(String),
        },
      ],
    });
    const [newer, older] = res.json().requests as { requestedAt: string }[];
    expect(Date.parse(newer!.requestedAt)).toBeGreaterThan(Date.parse(older!.requestedAt));
    // Sam's own request only; members and the creators have none.
    expect((await joinList(as.stranger)).map((r) => r.sessionId)).toEqual([waiting._id]);
    for (const member of [as.creator, as.participant, as.viewer, asCleo]) {
      expect(await joinList(member)).toEqual([]);
    }
  });

  it("loses a request withdrawn with the leave route", async () => {
    const { as, sessionId } = await sessionWithEveryRole(t);
    expect((await joinList(as.pending)).map((r) => r.sessionId)).toEqual([sessionId]);
    const res = await as.pending("DELETE", `/api/sessions/${sessionId}/leave`);
    expect(res.json().message).toBe("Join request withdrawn");
    expect(await joinList(as.pending)).toEqual([]);
  });

  it("needs a signed-in caller", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/sessions/join-requests/mine" });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBeTypeOf("string");
  });
});

describe("invites", () => {
  it("by email with role viewer: listed, accepted, member with that role", async () => {
    const { as, people, sessionId } = await sessionWithEveryRole(t);
    const vic = (await as.viewer("GET", `/api/sessions/${sessionId}`)).json().session;
    expect(
      vic.invitedUsers.find((m: { userId: string }) => m.userId === people.viewer.userId).role,
    ).toBe("viewer");
    expect(vic.passcode).toBeUndefined();
    expect(vic.hasPasscode).toBe(true);
  });

  it("answers alike for an email with and without an account, and the invite waits for sign-up", async () => {
    const { as, code, sessionId } = await sessionWithEveryRole(t);
    const existing = await signUp(t, "Kim");
    const futureEmail = uniqueEmail("future");
    const a = await as.creator("POST", "/api/sessions/invite", {
      sessionCode: code,
      emailOrUsername: existing.email,
      role: "participant",
    });
    const b = await as.creator("POST", "/api/sessions/invite", {
      sessionCode: code,
      emailOrUsername: futureEmail,
      role: "participant",
    });
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(a.json().message.replace(existing.email, "X")).toBe(
      b.json().message.replace(futureEmail, "X"),
    );

    const kim = client(t, existing.token);
    const invites = (await kim("GET", "/api/sessions/myinvites")).json().invites;
    expect(invites).toEqual([
      expect.objectContaining({
        sessionName: "Weekend groceries",
        sessionCode: code,
        role: "participant",
        invitedBy: expect.objectContaining({ name: "Ann" }),
      }),
    ]);
    // The future user registers later and finds the invite waiting.
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/register",
      payload: { name: "Fay", email: futureEmail, password: "plum-orchard-42" },
    });
    expect(res.statusCode).toBe(201);
    const { latestCode } = await import("../helpers.ts");
    const verify = await t.app.inject({
      method: "POST",
      url: "/api/auth/verify-otp",
      payload: { userId: res.json().userId, code: await latestCode(t.database, futureEmail) },
    });
    const fay = client(t, verify.json().token);
    expect((await fay("GET", "/api/sessions/myinvites")).json().invites).toHaveLength(1);
    const accepted = await fay("POST", "/api/sessions/accinvite", { sessionCode: code });
    expect(accepted.json()).toEqual({ message: "Invite accepted", sessionId });
    expect((await fay("GET", `/api/sessions/${sessionId}`)).statusCode).toBe(200);
  });

  it("by a unique name works; an unknown name is 404; a member or a second invite is 409", async () => {
    const { as, code, people } = await sessionWithEveryRole(t);
    const name = `Unique${Date.now()}`;
    await signUp(t, name);
    expect(
      (
        await as.creator("POST", "/api/sessions/invite", {
          sessionCode: code,
          emailOrUsername: name.toLowerCase(),
          role: "viewer",
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await as.creator("POST", "/api/sessions/invite", {
          sessionCode: code,
          emailOrUsername: name,
          role: "viewer",
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (
        await as.creator("POST", "/api/sessions/invite", {
          sessionCode: code,
          emailOrUsername: "Nobody Here Xyz",
          role: "viewer",
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await as.creator("POST", "/api/sessions/invite", {
          sessionCode: code,
          emailOrUsername: people.participant.email,
          role: "viewer",
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (
        await as.creator("POST", "/api/sessions/invite", {
          sessionCode: code,
          emailOrUsername: "x@y.co",
          role: "admin",
        })
      ).statusCode,
    ).toBe(400);
  });

  it("rejecting removes the invite; accepting twice fails", async () => {
    const { as, code } = await sessionWithEveryRole(t);
    const kim = await signUp(t, "Kim");
    await as.creator("POST", "/api/sessions/invite", {
      sessionCode: code,
      emailOrUsername: kim.email,
      role: "viewer",
    });
    const k = client(t, kim.token);
    expect((await k("POST", "/api/sessions/rejinvite", { sessionCode: code })).json()).toEqual({
      message: "Invite rejected",
    });
    expect((await k("GET", "/api/sessions/myinvites")).json().invites).toEqual([]);
    expect((await k("POST", "/api/sessions/accinvite", { sessionCode: code })).statusCode).toBe(
      404,
    );
  });

  it("accepting turns an earlier join request into the invited role", async () => {
    const { as, code, people, sessionId } = await sessionWithEveryRole(t);
    await as.creator("POST", "/api/sessions/invite", {
      sessionCode: code,
      emailOrUsername: people.pending.email,
      role: "viewer",
    });
    expect(
      (await as.pending("POST", "/api/sessions/accinvite", { sessionCode: code })).statusCode,
    ).toBe(200);
    const s = (await as.pending("GET", `/api/sessions/${sessionId}`)).json().session;
    expect(
      s.invitedUsers.filter((m: { userId: string }) => m.userId === people.pending.userId),
    ).toEqual([expect.objectContaining({ role: "viewer" })]);
  });
});

describe("edit, leave and end", () => {
  it("the creator edits; an empty passcode removes it; null budget removes it", async () => {
    const { as, sessionId } = await sessionWithEveryRole(t);
    const res = await as.creator("PATCH", `/api/sessions/${sessionId}`, {
      sessionName: "Renamed",
      passcode: "",
      budget: null,
      participants: "2",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().session).toMatchObject({
      sessionName: "Renamed",
      hasPasscode: false,
      budget: null,
      participants: "2",
      version: expect.any(Number),
    });
    expect(res.json().session.passcode).toBeUndefined();
  });

  it("an empty edit is a 400 naming what may be sent, and stores nothing", async () => {
    const { as, sessionId } = await sessionWithEveryRole(t);
    const before = (await as.creator("GET", `/api/sessions/${sessionId}`)).json().session;
    const res = await as.creator("PATCH", `/api/sessions/${sessionId}`, {});
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(
      /sessionName, sessionType, participants, passcode, budget, splitMode, fees and checkoutBy/,
    );
    const after = (await as.creator("GET", `/api/sessions/${sessionId}`)).json().session;
    expect(after).toEqual(before);
    const log = (await as.creator("GET", `/api/sessions/${sessionId}/activity`)).json().events;
    expect(log.filter((e: { type: string }) => e.type === "session.updated")).toEqual([]);
  });

  it("leave removes a participant and a viewer; a pending one withdraws; the creator gets 409", async () => {
    const { as, sessionId } = await sessionWithEveryRole(t);
    expect(
      (await as.participant("DELETE", `/api/sessions/${sessionId}/leave`)).json().message,
    ).toBe("You left the session");
    expect((await as.participant("GET", `/api/sessions/${sessionId}`)).statusCode).toBe(404);
    expect((await as.viewer("DELETE", `/api/sessions/${sessionId}/leave`)).statusCode).toBe(200);
    expect((await as.pending("DELETE", `/api/sessions/${sessionId}/leave`)).json().message).toBe(
      "Join request withdrawn",
    );
    const creator = await as.creator("DELETE", `/api/sessions/${sessionId}/leave`);
    expect(creator.statusCode).toBe(409);
    expect(creator.json().message).toMatch(/end the session/);
  });

  it("end keeps the session and its cart as history and refuses later changes", async () => {
    const { as, sessionId, code, cartId } = await sessionWithEveryRole(t);
    const res = await as.creator("PUT", `/api/sessions/${sessionId}/end`);
    expect(res.json()).toEqual({ message: "Session ended", sessionId });
    const s = (await as.participant("GET", `/api/sessions/${sessionId}`)).json().session;
    expect(s.status).toBe("ended");
    expect(s.cartId).toBe(cartId);
    const [cart] = await t.database.db.select().from(carts).where(eq(carts.id, cartId));
    expect(cart!.status).toBe("completed");
    expect((await as.creator("PUT", `/api/sessions/${sessionId}/end`)).statusCode).toBe(409);
    expect(
      (await as.creator("PATCH", `/api/sessions/${sessionId}`, { sessionName: "x" })).statusCode,
    ).toBe(409);
    expect(
      (
        await as.stranger("POST", "/api/sessions/join/code", {
          sessionCode: code,
          passcode: "tulip",
        })
      ).statusCode,
    ).toBe(403);
  });

  it("every change bumps the session version", async () => {
    const { as, sessionId } = await sessionWithEveryRole(t);
    const v1 = (await as.creator("GET", `/api/sessions/${sessionId}`)).json().session.version;
    await as.creator("PATCH", `/api/sessions/${sessionId}`, { budget: 99 });
    const v2 = (await as.creator("GET", `/api/sessions/${sessionId}`)).json().session.version;
    expect(v2).toBeGreaterThan(v1);
  });
});

describe("avatars of members", () => {
  it("redirect to the generated avatar", async () => {
    const ann = await signUp(t);
    const res = await t.app.inject({ method: "GET", url: `/api/users/${ann.userId}/avatar` });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`/api/avatars/${ann.userId}.svg`);
  });
});
