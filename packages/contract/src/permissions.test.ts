import { describe, expect, it } from "vitest";
import {
  ACCOUNT_ACTIONS,
  ACTIONS,
  accountCaller,
  CALLERS,
  LINK_CALLERS,
  MEMBER_ROLES,
  ORDER_CALLERS,
  PERMISSIONS,
  can,
  needsOf,
  openSettings,
  refusal,
  type OpenSetting,
} from "./permissions.ts";

describe("the permissions table", () => {
  it("refuses anyone outside the session with 404 unless the action allows them", () => {
    for (const action of ACTIONS) {
      expect(refusal("stranger", action)).toEqual({ status: 404 });
      expect(refusal(null, action)).toEqual({ status: 404 });
      if (!can("pending", action)) expect(refusal("pending", action)).toEqual({ status: 404 });
    }
  });

  it("answers members it refuses with 403 and a message, or the table's 409", () => {
    for (const action of ACTIONS) {
      for (const role of MEMBER_ROLES) {
        const answer = refusal(role, action);
        if (can(role, action)) expect(answer).toBeNull();
        else {
          expect([403, 409]).toContain(answer?.status);
          expect(answer?.message).toBeTruthy();
        }
      }
    }
  });

  // The roles table, row by row: who may read, add, change, clear, invite and leave.
  it.each([
    ["session.read", { creator: 1, participant: 1, viewer: 1, pending: 0, stranger: 0 }],
    ["cart.add", { creator: 1, participant: 1, viewer: 0, pending: 0, stranger: 0 }],
    ["cart.changeOwnLine", { creator: 1, participant: 1, viewer: 0, pending: 0, stranger: 0 }],
    ["cart.changeAnyLine", { creator: 1, participant: 0, viewer: 0, pending: 0, stranger: 0 }],
    ["cart.hideLine", { creator: 1, participant: 1, viewer: 0, pending: 0, stranger: 0 }],
    ["cart.seePrivate", { creator: 1, participant: 0, viewer: 0, pending: 0, stranger: 0 }],
    ["cart.clear", { creator: 1, participant: 0, viewer: 0, pending: 0, stranger: 0 }],
    ["cart.acknowledgePrice", { creator: 1, participant: 1, viewer: 0, pending: 0, stranger: 0 }],
    ["session.invite", { creator: 1, participant: 0, viewer: 0, pending: 0, stranger: 0 }],
    ["session.leave", { creator: 0, participant: 1, viewer: 1, pending: 1, stranger: 0 }],
  ] as const)("%s follows the roles table", (action, expected) => {
    const got = Object.fromEntries(CALLERS.map((c) => [c, can(c, action) ? 1 : 0]));
    expect(got).toEqual(expected);
  });

  it("lets a look-only link see the list and do nothing else", () => {
    const viewers = Object.fromEntries(
      [...CALLERS, ...LINK_CALLERS].map((c) => [c, can(c, "session.viewByLink") ? 1 : 0]),
    );
    expect(viewers).toEqual({
      creator: 0,
      participant: 0,
      viewer: 0,
      pending: 0,
      stranger: 0,
      look: 1,
    });
    expect(refusal("stranger", "session.viewByLink")).toEqual({ status: 404 });
    // To every other action the link is nobody: 404, as for a stranger.
    for (const action of ACTIONS.filter((a) => a !== "session.viewByLink")) {
      expect(refusal("look", action), action).toEqual({ status: 404 });
    }
  });

  it("closes the cart's line writes at the session's deadline, and nothing else", () => {
    expect(ACTIONS.filter((a) => needsOf(a) === "open cart")).toEqual([
      "cart.add",
      "cart.changeOwnLine",
      "cart.changeAnyLine",
      "cart.hideLine",
      "cart.acknowledgePrice",
      "cart.clear",
    ]);
  });

  it("tells the creator to end the session rather than leave it", () => {
    expect(refusal("creator", "session.leave")).toEqual({
      status: 409,
      message: "The creator cannot leave; end the session instead.",
    });
  });

  it("tells viewers the cart is read-only", () => {
    for (const action of ["cart.add", "cart.changeOwnLine", "cart.clear"] as const) {
      expect(refusal("viewer", action)?.message).toBe(PERMISSIONS["cart.add"].viewer);
    }
  });

  // Orders: the creator checks out; an order is seen by its payee and the
  // members with a share, paid by a sharer and confirmed by the payee; anyone else gets 404.
  it.each([
    ["order.read", { payee: 1, payer: 1, sharer: 1, stranger: 0 }],
    // Anyone who owes on the order says they paid; the payee too, who may owe another payer.
    ["order.pay", { payee: 1, payer: 1, sharer: 1, stranger: 0 }],
    // Each who paid the shop settles what is owed to them.
    ["order.confirm", { payee: 1, payer: 1, sharer: 0, stranger: 0 }],
    ["order.mail", { payee: 1, payer: 0, sharer: 0, stranger: 0 }],
    ["order.reveal", { payee: 1, payer: 0, sharer: 0, stranger: 0 }],
  ] as const)("%s follows the orders' roles", (action, expected) => {
    const got = Object.fromEntries(ORDER_CALLERS.map((c) => [c, can(c, action) ? 1 : 0]));
    expect(got).toEqual(expected);
    expect(refusal("stranger", action)).toEqual({ status: 404 });
  });

  it("lets only the creator check out", () => {
    const got = Object.fromEntries(CALLERS.map((c) => [c, refusal(c, "session.checkout")?.status]));
    expect(got).toEqual({
      creator: undefined,
      participant: 403,
      viewer: 403,
      pending: 404,
      stranger: 404,
    });
  });

  it("lets the participants check out too where the session opens checkout to its members", () => {
    const got = Object.fromEntries(
      CALLERS.map((c) => [c, refusal(c, "session.checkout", ["checkoutBy"])?.status]),
    );
    expect(got).toEqual({
      creator: undefined,
      participant: undefined,
      viewer: 403,
      pending: 404,
      stranger: 404,
    });
    // Only a rule that names the setting opens.
    for (const action of ACTIONS.filter((a) => a !== "session.checkout")) {
      for (const caller of CALLERS) {
        expect(can(caller, action, ["checkoutBy"]), `${action} ${caller}`).toBe(
          can(caller, action),
        );
      }
    }
    expect(openSettings({ checkoutBy: "members" })).toEqual(["checkoutBy"]);
    expect(openSettings({ checkoutBy: "creator" })).toEqual([]);
  });

  it("lets the creator and the approvers named decide on waiting lines", () => {
    const got = (open: OpenSetting[]) =>
      Object.fromEntries(CALLERS.map((c) => [c, refusal(c, "cart.approve", open)?.status]));
    expect(got([])).toEqual({
      creator: undefined,
      participant: 403,
      viewer: 403,
      pending: 404,
      stranger: 404,
    });
    expect(got(["approver"])).toEqual({
      creator: undefined,
      participant: undefined,
      viewer: undefined,
      pending: 404,
      stranger: 404,
    });
    for (const action of ACTIONS.filter((a) => a !== "cart.approve")) {
      for (const caller of CALLERS) {
        expect(can(caller, action, ["approver"]), `${action} ${caller}`).toBe(can(caller, action));
      }
    }
    const session = { checkoutBy: "members", approvers: ["u-vic"] };
    expect(openSettings(session, "u-vic")).toEqual(["checkoutBy", "approver"]);
    expect(openSettings(session, "u-ben")).toEqual(["checkoutBy"]);
    expect(openSettings({ approvers: ["u-vic"] })).toEqual([]);
  });

  // The catalog's actions belong to an account role, not to a role in a session.
  it.each(["catalog.read", "catalog.edit"] as const)(
    "%s is the operator's: any other account gets 403",
    (action) => {
      expect(ACCOUNT_ACTIONS).toContain(action);
      expect(refusal("operator", action)).toBeNull();
      expect(refusal("user", action)).toEqual({
        status: 403,
        message: "Only the catalog's operators can do that.",
      });
      for (const role of MEMBER_ROLES) expect(can(role, action)).toBe(false);
      expect(accountCaller(["operator"], action)).toBe("operator");
      expect(accountCaller([], action)).toBe("user");
    },
  );

  it("has no account action among a session's or an order's", () => {
    expect(ACCOUNT_ACTIONS).toEqual(["catalog.read", "catalog.edit"]);
  });

  it("tells a sharer who confirms why not", () => {
    expect(refusal("sharer", "order.confirm")).toEqual({
      status: 403,
      message: "Only those who paid the shop confirm payments to them.",
    });
  });
});
