/**
 * Issue 17, items 5 and 6: an ended session is read-only for everyone, leaving included, and
 * pending join requests are the creator's business.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, sessionWithEveryRole, type TestApp } from "../helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const roles = (members: { role: string; userId: string }[]) => members.map((m) => m.role).sort();

describe("pending join requests", () => {
  it("are listed for the creator only; the other members see only members", async () => {
    const f = await sessionWithEveryRole(t);
    const seen = async (role: "creator" | "participant" | "viewer") => {
      const session = (await f.as[role]("GET", `/api/sessions/${f.sessionId}`)).json().session;
      const cart = (await f.as[role]("GET", `/api/sessions/${f.sessionId}/cart`)).json().cart;
      const mine = (await f.as[role]("GET", "/api/sessions/my")).json().sessions[0];
      return [session.invitedUsers, cart.sessionId.invitedUsers, mine.invitedUsers];
    };
    for (const members of await seen("creator")) {
      expect(roles(members)).toEqual(["creator", "participant", "pending", "viewer"]);
    }
    for (const role of ["participant", "viewer"] as const) {
      for (const members of await seen(role)) {
        expect(roles(members)).toEqual(["creator", "participant", "viewer"]);
        expect(JSON.stringify(members)).not.toContain(f.people.pending.userId);
      }
    }
  });
});

describe("an ended session", () => {
  it("cannot be left (409) by a participant or viewer, and they stay in its history", async () => {
    const f = await sessionWithEveryRole(t);
    expect((await f.as.creator("PUT", `/api/sessions/${f.sessionId}/end`)).statusCode).toBe(200);
    for (const role of ["participant", "viewer"] as const) {
      const res = await f.as[role]("DELETE", `/api/sessions/${f.sessionId}/leave`);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: "CONFLICT", message: "This session has ended." });
    }
    const members = (await f.as.creator("GET", `/api/sessions/${f.sessionId}`)).json().session
      .invitedUsers;
    expect(roles(members)).toContain("participant");
    expect(roles(members)).toContain("viewer");
    // A stranger still learns nothing: 404, not 409.
    expect((await f.as.stranger("DELETE", `/api/sessions/${f.sessionId}/leave`)).statusCode).toBe(
      404,
    );
  });
});
