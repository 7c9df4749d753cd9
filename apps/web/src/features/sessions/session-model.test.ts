import { describe, expect, it } from "vitest";
import { testUser } from "../../test/render-app.tsx";
import { pickActiveSession } from "../../shared/active-session.ts";
import { avatarStack, matchesName, membersOf, parseBudget, savingsOf } from "./session-model.ts";
import { roleIn } from "../../shared/roles.ts";
import { newestFirst } from "../../shared/session-order.ts";
import { ben, cleo, makeSession, member, sessionAs } from "../../test/test-sessions.ts";

describe("session model", () => {
  it("savings are budget minus cart total, to the cent, and null without a budget", () => {
    expect(savingsOf({ budget: 100, cart: { _id: "c", totalPrice: 40.1, itemCount: 1 } })).toBe(
      59.9,
    );
    expect(savingsOf({ budget: 0.3, cart: { _id: "c", totalPrice: 0.1, itemCount: 1 } })).toBe(0.2);
    expect(savingsOf({ budget: 20, cart: { _id: "c", totalPrice: 25.5, itemCount: 1 } })).toBe(
      -5.5,
    );
    expect(
      savingsOf({ budget: null, cart: { _id: "c", totalPrice: 10, itemCount: 1 } }),
    ).toBeNull();
  });

  it("shows at most 3 avatars, then +N", () => {
    const people = ["a", "b", "c", "d", "e"].map((id) => member({ _id: id, name: id }, "viewer"));
    expect(avatarStack(people.slice(0, 2))).toEqual({ shown: people.slice(0, 2), more: 0 });
    expect(avatarStack(people.slice(0, 3)).more).toBe(0);
    const five = avatarStack(people);
    expect(five.shown.map((m) => m.userId)).toEqual(["a", "b", "c"]);
    expect(five.more).toBe(2);
  });

  it("finds the caller's role in invitedUsers, and leaves pending requests out of the members", () => {
    const session = makeSession({
      invitedUsers: [
        member(ben, "participant"),
        member(testUser, "creator"),
        member(cleo, "pending"),
      ],
    });
    expect(roleIn(session, testUser._id)).toBe("creator");
    expect(roleIn(session, ben._id)).toBe("participant");
    expect(roleIn(session, cleo._id)).toBe("pending");
    expect(roleIn(session, "stranger")).toBeNull();
    expect(roleIn(sessionAs("viewer"), testUser._id)).toBe("viewer");
    expect(membersOf(session).map((m) => m.role)).toEqual(["creator", "participant"]);
  });

  it("parses budgets: empty is none, two decimals at most, never negative", () => {
    expect(parseBudget("")).toEqual({ ok: true, value: null });
    expect(parseBudget(" 150 ")).toEqual({ ok: true, value: 150 });
    expect(parseBudget("$1,249.99")).toEqual({ ok: true, value: 1249.99 });
    expect(parseBudget("€150")).toEqual({ ok: true, value: 150 });
    expect(parseBudget("150 €")).toEqual({ ok: true, value: 150 });
    expect(parseBudget("£ 80.50")).toEqual({ ok: true, value: 80.5 });
    expect(parseBudget("€€150").ok).toBe(false);
    expect(parseBudget("0")).toEqual({ ok: true, value: 0 });
    expect(parseBudget("-5").ok).toBe(false);
    expect(parseBudget("12.345").ok).toBe(false);
    expect(parseBudget("abc").ok).toBe(false);
    expect(parseBudget("1000001").ok).toBe(false);
  });

  it("sorts newest first and matches names case-insensitively", () => {
    const old = makeSession({ updatedAt: "2025-01-01T00:00:00.000Z" });
    const recent = makeSession({ updatedAt: "2025-06-01T00:00:00.000Z" });
    expect(newestFirst([old, recent])).toEqual([recent, old]);
    expect(matchesName({ sessionName: "Weekend Groceries" }, "  groc ")).toBe(true);
    expect(matchesName({ sessionName: "Weekend Groceries" }, "trip")).toBe(false);
    expect(matchesName({ sessionName: "Anything" }, "")).toBe(true);
  });
});

describe("pickActiveSession", () => {
  const older = makeSession({ updatedAt: "2025-01-01T00:00:00.000Z" });
  const newer = makeSession({ updatedAt: "2025-06-01T00:00:00.000Z" });
  const ended = makeSession({ status: "ended", updatedAt: "2025-07-01T00:00:00.000Z" });

  it("uses the stored session while it is active", () => {
    expect(pickActiveSession([newer, older], older._id)).toBe(older);
  });

  it("falls back to the newest active session when none is stored or it is gone", () => {
    expect(pickActiveSession([older, newer], null)).toBe(newer);
    expect(pickActiveSession([older, newer], "no-longer-mine")).toBe(newer);
    expect(pickActiveSession([older, newer, ended], ended._id)).toBe(newer);
  });

  it("is null without active sessions", () => {
    expect(pickActiveSession([], null)).toBeNull();
    expect(pickActiveSession([ended], ended._id)).toBeNull();
  });
});
