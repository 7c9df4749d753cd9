/**
 * Session presets (PGlite and PostgreSQL): each type fills in the choices the request leaves
 * out, on create and when the type changes; explicit choices win; who may check out follows the
 * session's `checkoutBy`; a Solo session takes no invites; members' budget modes and child marks
 * and the session's approvers, with their bad input. Who may call each route is walked by
 * authorization.test.ts.
 */
import { PRESETS, SESSION_TYPES, SOLO_NO_INVITES } from "@cartner/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  client,
  createTestApp,
  sessionWithEveryRole,
  signUp,
  uniqueEmail,
  type TestApp,
} from "../helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function creator() {
  const ann = await signUp(t, "Ann");
  return { ann, as: client(t, ann.token) };
}

describe("presets on create", () => {
  it.each(SESSION_TYPES)("%s fills in its choices", async (type) => {
    const { as } = await creator();
    const res = await as("POST", "/api/sessions", { sessionName: "Groceries", sessionType: type });
    expect(res.statusCode, res.body).toBe(201);
    const session = res.json().session;
    const preset = PRESETS[type];
    expect({
      participants: session.participants,
      mode: session.splitPolicy.mode,
      fees: session.splitPolicy.fees,
      checkoutBy: session.checkoutBy,
      approvers: session.approvers,
    }).toEqual({
      participants: preset.participants,
      mode: preset.split.mode,
      fees: preset.split.fees,
      checkoutBy: preset.checkoutBy,
      approvers: [],
    });
    expect(session.invitedUsers[0]).toMatchObject({ budgetMode: "warn", child: false });
  });

  it("lets each choice given in the request win over the preset", async () => {
    const { as } = await creator();
    const res = await as("POST", "/api/sessions", {
      sessionName: "Groceries",
      sessionType: "Couple",
      participants: "3+",
      splitMode: "weights",
      fees: "creator",
      checkoutBy: "creator",
    });
    expect(res.statusCode, res.body).toBe(201);
    const session = res.json().session;
    expect(session.participants).toBe("3+");
    expect(session.splitPolicy).toEqual({ mode: "weights", weights: {}, fees: "creator" });
    expect(session.checkoutBy).toBe("creator");
  });

  it("refuses a choice it does not know, naming the field", async () => {
    const { as } = await creator();
    for (const [field, value] of [
      ["splitMode", "halves"],
      ["fees", "nobody"],
      ["checkoutBy", "everyone"],
      ["sessionType", "Party"],
    ] as const) {
      const res = await as("POST", "/api/sessions", {
        sessionName: "Groceries",
        sessionType: "Friends",
        [field]: value,
      });
      expect(res.statusCode, field).toBe(400);
      expect(Object.keys(res.json().fields ?? {}), field).toContain(field);
    }
  });
});

describe("presets when the type changes", () => {
  it("applies the new type's preset to the choices the request does not give, keeping weights", async () => {
    const f = await sessionWithEveryRole(t);
    const weights = { [f.people.participant.userId]: 50 };
    const set = await f.as.creator("PUT", `/api/sessions/${f.sessionId}/split-policy`, {
      mode: "by_adder",
      weights,
      fees: "proportional",
    });
    expect(set.statusCode, set.body).toBe(200);
    const res = await f.as.creator("PATCH", `/api/sessions/${f.sessionId}`, {
      sessionType: "Couple",
      fees: "creator",
    });
    expect(res.statusCode, res.body).toBe(200);
    const session = res.json().session;
    expect(session.sessionType).toBe("Couple");
    expect(session.participants).toBe("2");
    expect(session.splitPolicy).toEqual({ mode: "equal", weights, fees: "creator" });
    expect(session.checkoutBy).toBe("members");
  });

  it("leaves the choices alone when the type stays, and changes one choice on its own", async () => {
    const f = await sessionWithEveryRole(t);
    const before = (await f.as.creator("GET", `/api/sessions/${f.sessionId}`)).json().session;
    const same = await f.as.creator("PATCH", `/api/sessions/${f.sessionId}`, {
      sessionType: before.sessionType,
      splitMode: "equal",
    });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().session.splitPolicy).toEqual({ ...before.splitPolicy, mode: "equal" });
    expect(same.json().session.checkoutBy).toBe(before.checkoutBy);
    const open = await f.as.creator("PATCH", `/api/sessions/${f.sessionId}`, {
      checkoutBy: "members",
    });
    expect(open.json().session.checkoutBy).toBe("members");
  });
});

describe("who checks out", () => {
  async function withLine(type: "Couple" | "Family") {
    const f = await sessionWithEveryRole(t);
    const moved = await f.as.creator("PATCH", `/api/sessions/${f.sessionId}`, {
      sessionType: type,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const [product] = (await f.as.creator("GET", "/api/products?limit=1")).json().products;
    const added = await f.as.participant("POST", `/api/carts/${f.cartId}/product`, {
      productId: product._id,
    });
    expect(added.statusCode, added.body).toBe(200);
    return f;
  }

  it("lets a Couple's participant check out, never a viewer", async () => {
    const f = await withLine("Couple");
    const viewer = await f.as.viewer("POST", `/api/sessions/${f.sessionId}/checkout`);
    expect(viewer.statusCode).toBe(403);
    const res = await f.as.participant("POST", `/api/sessions/${f.sessionId}/checkout`);
    expect(res.statusCode, res.body).toBe(201);
  });

  it("refuses a Family's participant: only the creator checks out", async () => {
    const f = await withLine("Family");
    const res = await f.as.participant("POST", `/api/sessions/${f.sessionId}/checkout`);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe("Only the session's creator checks out this session.");
    const stranger = await f.as.stranger("POST", `/api/sessions/${f.sessionId}/checkout`);
    expect(stranger.statusCode).toBe(404);
    expect((await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`)).statusCode).toBe(
      201,
    );
  });

  it("follows the creator's change of who checks out", async () => {
    const f = await withLine("Couple");
    await f.as.creator("PATCH", `/api/sessions/${f.sessionId}`, { checkoutBy: "creator" });
    const res = await f.as.participant("POST", `/api/sessions/${f.sessionId}/checkout`);
    expect(res.statusCode).toBe(403);
  });
});

describe("Solo", () => {
  it("refuses invites and links while it is Solo, and takes them once it is not", async () => {
    const { as } = await creator();
    const created = await as("POST", "/api/sessions", { sessionName: "Me", sessionType: "Solo" });
    const session = created.json().session;
    const invite = await as("POST", "/api/sessions/invite", {
      sessionCode: session.sessionCode,
      emailOrUsername: uniqueEmail("bo"),
      role: "participant",
    });
    expect(invite.statusCode).toBe(409);
    expect(invite.json().message).toBe(SOLO_NO_INVITES);
    const link = await as("POST", `/api/sessions/${session._id}/links`, {
      role: "participant",
      expiresInHours: 1,
      maxUses: 1,
    });
    expect(link.statusCode).toBe(409);
    expect(link.json().message).toBe(SOLO_NO_INVITES);
    await as("PATCH", `/api/sessions/${session._id}`, { sessionType: "Couple" });
    const again = await as("POST", "/api/sessions/invite", {
      sessionCode: session.sessionCode,
      emailOrUsername: uniqueEmail("bo"),
      role: "participant",
    });
    expect(again.statusCode, again.body).toBe(201);
  });
});

describe("members' budget modes and child marks", () => {
  it("stores them, the creator's to set", async () => {
    const f = await sessionWithEveryRole(t);
    const url = `/api/sessions/${f.sessionId}/members/${f.people.participant.userId}`;
    const res = await f.as.creator("PATCH", url, { child: true, budgetMode: "ask" });
    expect(res.statusCode, res.body).toBe(200);
    const ben = res
      .json()
      .session.invitedUsers.find(
        (m: { userId: string }) => m.userId === f.people.participant.userId,
      );
    expect(ben).toMatchObject({ child: true, budgetMode: "ask" });
    // A member sets their own budget, not its mode nor their child mark.
    const own = `/api/sessions/${f.sessionId}/members/${f.people.participant.userId}`;
    expect((await f.as.participant("PATCH", own, { budget: 10 })).statusCode).toBe(200);
    expect((await f.as.participant("PATCH", own, { budgetMode: "warn" })).statusCode).toBe(403);
    expect((await f.as.participant("PATCH", own, { child: false })).statusCode).toBe(403);
  });

  it("refuses bad input, naming the field", async () => {
    const f = await sessionWithEveryRole(t);
    const ben = `/api/sessions/${f.sessionId}/members/${f.people.participant.userId}`;
    for (const [field, body] of [
      ["budgetMode", { budgetMode: "never" }],
      ["child", { child: "yes" }],
    ] as const) {
      const res = await f.as.creator("PATCH", ben, body);
      expect(res.statusCode, field).toBe(400);
      expect(Object.keys(res.json().fields ?? {}), field).toContain(field);
    }
    const self = `/api/sessions/${f.sessionId}/members/${f.people.creator.userId}`;
    const creatorChild = await f.as.creator("PATCH", self, { child: true });
    expect(creatorChild.statusCode).toBe(400);
    expect(Object.keys(creatorChild.json().fields ?? {})).toEqual(["child"]);
  });
});

describe("approvers", () => {
  it("stores members, not pending requesters or strangers", async () => {
    const f = await sessionWithEveryRole(t);
    const url = `/api/sessions/${f.sessionId}/approvers`;
    const ok = await f.as.creator("PUT", url, {
      userIds: [f.people.participant.userId, f.people.viewer.userId],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().session.approvers).toEqual([
      f.people.participant.userId,
      f.people.viewer.userId,
    ]);
    for (const who of ["pending", "stranger"] as const) {
      const res = await f.as.creator("PUT", url, { userIds: [f.people[who].userId] });
      expect(res.statusCode, who).toBe(400);
      expect(Object.keys(res.json().fields ?? {}), who).toEqual(["userIds"]);
    }
    for (const body of [
      { userIds: ["nope"] },
      { userIds: [f.people.viewer.userId, f.people.viewer.userId] },
      {},
    ]) {
      const res = await f.as.creator("PUT", url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().fields ?? {})[0]).toMatch(/^userIds/);
    }
    // One who leaves approves no more.
    await f.as.viewer("DELETE", `/api/sessions/${f.sessionId}/leave`);
    const after = (await f.as.creator("GET", `/api/sessions/${f.sessionId}`)).json().session;
    expect(after.approvers).toEqual([f.people.participant.userId]);
    expect((await f.as.creator("PUT", url, { userIds: [] })).json().session.approvers).toEqual([]);
  });
});
