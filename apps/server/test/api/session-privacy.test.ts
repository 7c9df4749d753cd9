/**
 * An ended session is read-only for everyone, leaving included;
 * pending join requests are the creator's business; guessing a passcode locks out the guessers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, sessionWithEveryRole, signUp, type TestApp } from "../helpers.ts";

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

describe("guessing a session's passcode", () => {
  const join = (token: string, address: string, sessionCode: string, passcode: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/sessions/join/code",
      headers: { authorization: `Bearer ${token}` },
      remoteAddress: address,
      payload: { sessionCode, passcode },
    });

  it("locks out the guessers, not a newcomer with the right passcode", async () => {
    const f = await sessionWithEveryRole(t);
    const attackers = [await signUp(t, "Mal"), await signUp(t, "Mel"), await signUp(t, "Mol")];
    // Three accounts from three addresses, ten wrong passcodes each: 30 failures on the session.
    for (const [i, attacker] of attackers.entries()) {
      for (let n = 0; n < 10; n++) {
        expect(
          (await join(attacker.token, `10.0.0.${i + 1}`, f.code, `guess${n}`)).statusCode,
        ).toBe(403);
      }
      const capped = await join(attacker.token, `10.0.0.${i + 1}`, f.code, "tulip");
      expect(capped.statusCode).toBe(429);
      expect(capped.headers["retry-after"]).toBe("900");
    }
    // Under attack, an account that has failed here once gets no second guess...
    const mia = await signUp(t, "Mia");
    expect((await join(mia.token, "10.0.0.9", f.code, "wrong")).statusCode).toBe(403);
    const refused = await join(mia.token, "10.0.0.9", f.code, "tulip");
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(
      "This session is refusing your join requests for a few minutes.",
    );
    // ...while someone who has not failed joins with the right passcode.
    const liz = await signUp(t, "Liz");
    expect((await join(liz.token, "10.0.0.20", f.code, "tulip")).statusCode).toBe(202);
  });

  it("caps failures per client address across accounts", async () => {
    const f = await sessionWithEveryRole(t);
    const other = await sessionWithEveryRole(t);
    for (const name of ["Ada", "Bea", "Cy"]) {
      const guesser = await signUp(t, name);
      for (let n = 0; n < 10; n++) {
        await join(guesser.token, "10.1.0.1", n % 2 ? f.code : other.code, `guess${n}`);
      }
    }
    const dan = await signUp(t, "Dan");
    const fromThere = await join(dan.token, "10.1.0.1", f.code, "tulip");
    expect(fromThere.statusCode).toBe(429);
    expect(fromThere.json().message).toContain("from this network");
    expect((await join(dan.token, "10.1.0.2", f.code, "tulip")).statusCode).toBe(202);
  });
});
