import { describe, expect, it } from "vitest";
import type { Activity } from "@cartner/contract";
import { formatDeadline } from "../../shared/deadline-text.ts";
import { ACTIVITY_KEEP, appendActivity, describeActivity, timeAgo } from "./activity-model.ts";

const ben = { _id: "u-ben", name: "Ben" };
function entry(seq: number, type: Activity["type"], details: Record<string, unknown> = {}) {
  return { seq, at: "2026-11-25T10:00:00.000Z", actor: ben, type, ...details } as Activity;
}

describe("describeActivity", () => {
  it("says who did what to which product, and whose line it was", () => {
    expect(describeActivity(entry(1, "item.removed", { product: "Oat milk" }), "u-ann")).toBe(
      "Ben removed Oat milk",
    );
    expect(
      describeActivity(entry(2, "item.removed", { product: "Oat milk", lineOf: "Ann" }), "u-x"),
    ).toBe("Ben removed Oat milk (Ann's line)");
    expect(describeActivity(entry(3, "item.added", { product: "Eggs", quantity: 3 }), null)).toBe(
      "Ben added 3 × Eggs",
    );
    expect(
      describeActivity(entry(4, "item.quantity", { product: "Eggs", quantity: 2, change: -1 }), ""),
    ).toBe("Ben lowered Eggs to 2");
  });

  it("says who paid the shop, and what a recorded transfer settled", () => {
    const payers = entry(1, "order.payers", {
      number: "CRT-000012",
      payers: [
        { name: "Ann", amount: 30 },
        { name: "Cat", amount: 14.49 },
      ],
    });
    expect(describeActivity(payers, null)).toBe(
      "Ben said who paid order CRT-000012: Ann $30.00 and Cat $14.49",
    );
    const transfer = (amount: number) =>
      entry(2, "order.transfer", { number: "CRT-000012", to: "Ann", toId: "u-ann", amount });
    expect(describeActivity(transfer(12.4), null)).toBe(
      "Ben paid Ann $12.40 towards order CRT-000012",
    );
    expect(describeActivity(transfer(-3), null)).toBe(
      "Ben recorded a transfer that cancels the $3.00 Ann owed them on order CRT-000012",
    );
  });

  it("says how a share was settled, and that a deleted account's lines went with it", () => {
    const settled = (how?: string) =>
      entry(1, "order.confirmed", { member: "Cat", number: "CRT-000012", ...(how ? { how } : {}) });
    expect(describeActivity(settled(), null)).toBe(
      "Ben confirmed Cat's payment for order CRT-000012",
    );
    expect(describeActivity(settled("transfer"), null)).toBe(
      "Ben confirmed Cat's payment for order CRT-000012",
    );
    expect(describeActivity(settled("cash"), null)).toBe(
      "Ben marked Cat's share as paid in cash (order CRT-000012)",
    );
    expect(describeActivity(settled("written_off"), "u-ben")).toBe(
      "You wrote off Cat's share of order CRT-000012",
    );
    expect(
      describeActivity({ ...settled("written_off"), reason: "account_deleted" } as Activity, null),
    ).toBe("Ben wrote off Cat's share of order CRT-000012 (account deleted)");
    const gone = { ...entry(2, "item.removed"), actor: { _id: "u-cat", name: "Cat" } } as Activity;
    expect(
      describeActivity(
        { ...gone, product: "Oat milk", lineOf: "Cat", reason: "account_deleted" } as Activity,
        "u-ann",
      ),
    ).toBe("Cat's line Oat milk was removed (account deleted)");
  });

  it("says what became of the lines of a member who left or was removed", () => {
    const line = { product: "Oat milk", quantity: 2, lineOf: "Cat" };
    expect(
      describeActivity(entry(1, "item.removed", { ...line, reason: "member_left" }), null),
    ).toBe("Ben removed Oat milk (Cat's line, as Cat left)");
    const cat = { actor: { _id: "u-cat", name: "Cat" } };
    expect(
      describeActivity(
        { ...entry(2, "item.removed", { ...line, reason: "member_left" }), ...cat } as Activity,
        "u-cat",
      ),
    ).toBe("You removed Oat milk on leaving");
    expect(
      describeActivity(entry(3, "item.given", { ...line, to: "Ann", toId: "u-ann" }), null),
    ).toBe("Ben gave Cat's Oat milk to Ann, as Cat left");
    expect(
      describeActivity(
        { ...entry(4, "item.given", { ...line, to: "Ann", toId: "u-ann" }), ...cat } as Activity,
        null,
      ),
    ).toBe("Cat gave Oat milk to Ann on leaving");
    expect(
      describeActivity(
        entry(5, "item.given", { ...line, to: "Ann", toId: "u-ann", pending: true }),
        null,
      ),
    ).toBe("Ben gave Cat's Oat milk to Ann, as Cat left, waiting for approval");
  });

  it("says what an order adjustment changed and what a dispute said", () => {
    const order = { orderId: "o-1", number: "CRT-000012", adjustmentId: "a-1" };
    expect(
      describeActivity(
        entry(1, "order.adjusted", {
          ...order,
          kind: "missing",
          line: "Oat milk",
          from: 20,
          to: 15.5,
        }),
        null,
      ),
    ).toBe("Ben changed order CRT-000012 (Oat milk: not delivered): $20.00 → $15.50");
    expect(
      describeActivity(
        entry(2, "order.adjusted", { ...order, kind: "order_fee", from: 15.5, to: 14 }),
        null,
      ),
    ).toBe("Ben changed order CRT-000012 (order fee or discount): $15.50 → $14.00");
    expect(
      describeActivity(
        entry(3, "order.disputed", { ...order, kind: "missing", comment: "It came" }),
        null,
      ),
    ).toBe("Ben disputed a change to order CRT-000012: “It came”");
    expect(describeActivity(entry(4, "order.revealed", { ...order, count: 2 }), null)).toBe(
      "Ben showed 2 private items of order CRT-000012 to everyone",
    );
    expect(describeActivity(entry(5, "order.revealed", { ...order, count: 1 }), null)).toBe(
      "Ben showed the private item of order CRT-000012 to everyone",
    );
  });

  it("says You for the reader's own entries", () => {
    expect(describeActivity(entry(1, "cart.cleared"), "u-ben")).toBe("You cleared the cart");
  });

  it("makes the verb agree with You on a ready mark", () => {
    const done = entry(1, "session.updated", { ready: true });
    const again = entry(2, "session.updated", { ready: false });
    expect(describeActivity(done, "u-ben")).toBe("You are done adding items");
    expect(describeActivity(again, "u-ben")).toBe("You are adding items again");
    expect(describeActivity(done, "u-ann")).toBe("Ben is done adding items");
    expect(describeActivity(again, "u-ann")).toBe("Ben is adding items again");
  });

  it("describes members, settings and orders", () => {
    expect(describeActivity(entry(1, "member.joined", { via: "link" }), null)).toBe(
      "Ben joined with an invite link",
    );
    expect(describeActivity(entry(2, "member.removed", { member: "Cy" }), null)).toBe(
      "Ben removed Cy from the session",
    );
    expect(describeActivity(entry(3, "member.role", { member: "Cy", role: "creator" }), null)).toBe(
      "Ben handed the session to Cy",
    );
    expect(describeActivity(entry(4, "session.updated", { status: "ended" }), null)).toBe(
      "Ben ended the session",
    );
    expect(
      describeActivity(entry(5, "session.updated", { changed: ["budget"], budget: null }), null),
    ).toBe("Ben removed the budget");
    expect(
      describeActivity(entry(6, "session.updated", { changed: ["sessionName", "budget"] }), null),
    ).toBe("Ben changed the name and the budget");
    expect(describeActivity(entry(7, "split.policy", { mode: "equal" }), null)).toBe(
      "Ben set the split to “Equally”",
    );
    expect(
      describeActivity(entry(8, "item.shared", { product: "Tea", with: ["Ann", "Cy"] }), null),
    ).toBe("Ben shared Tea with Ann and Cy");
    expect(describeActivity(entry(9, "order.placed", { number: "A-7", total: 12.5 }), null)).toBe(
      "Ben checked out order A-7 ($12.50)",
    );
  });
});

describe("timeAgo", () => {
  const at = "2026-11-25T10:00:00.000Z";
  const base = Date.parse(at);
  it("reads like a person would say it", () => {
    expect(timeAgo(at, base + 10_000)).toBe("just now");
    expect(timeAgo(at, base + 2 * 60_000)).toBe("2 min ago");
    expect(timeAgo(at, base + 3 * 3_600_000)).toBe("3 h ago");
    expect(timeAgo(at, base + 26 * 3_600_000)).toBe("yesterday");
    expect(timeAgo(at, base + 4 * 86_400_000)).toBe("4 days ago");
  });
});

describe("appendActivity", () => {
  it("adds only entries newer than the last known one and keeps the newest", () => {
    const known = [entry(1, "cart.cleared"), entry(2, "cart.cleared")];
    const next = appendActivity(known, [entry(2, "cart.cleared"), entry(3, "cart.cleared")]);
    expect(next.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(appendActivity(next, [])).toBe(next);
    const many = Array.from({ length: ACTIVITY_KEEP + 10 }, (_, i) => entry(i + 4, "cart.cleared"));
    const kept = appendActivity(next, many);
    expect(kept).toHaveLength(ACTIVITY_KEEP);
    expect(kept.at(-1)?.seq).toBe(ACTIVITY_KEEP + 13);
  });
});

describe("deadline entries", () => {
  const closesAt = "2026-11-27T17:00:00.000Z";
  const when = formatDeadline(closesAt);
  it("say who set, moved, removed or reopened it, and when it closes, in the reader's zone", () => {
    expect(
      describeActivity(
        entry(1, "deadline.set", {
          closesAt,
          remindAt: [60],
          autoCheckout: false,
          previousClosesAt: null,
        }),
        null,
      ),
    ).toBe(`Ben set the deadline: the cart closes ${when}`);
    expect(
      describeActivity(
        entry(2, "deadline.set", {
          closesAt,
          remindAt: [60],
          autoCheckout: false,
          previousClosesAt: "2026-11-26T17:00:00.000Z",
        }),
        "u-ben",
      ),
    ).toBe(`You moved the deadline to ${when}`);
    expect(describeActivity(entry(3, "deadline.cleared", { closesAt }), null)).toBe(
      "Ben removed the deadline",
    );
    expect(
      describeActivity(
        entry(4, "deadline.reopened", { closesAt, previousClosesAt: closesAt }),
        null,
      ),
    ).toBe(`Ben reopened the cart until ${when}`);
  });

  it("say what the deadline itself did, without an actor", () => {
    expect(
      describeActivity(entry(1, "deadline.locked", { closesAt, autoCheckout: true }), "u-ben"),
    ).toBe(`The cart closed at the deadline, ${when}`);
    expect(
      describeActivity(
        entry(2, "deadline.checkout_skipped", { closesAt, reason: "empty_cart" }),
        null,
      ),
    ).toBe("The cart was empty at the deadline: nothing was checked out");
    expect(
      describeActivity(
        entry(2, "deadline.checkout_skipped", { closesAt, reason: "private_lines" }),
        null,
      ),
    ).toBe("The cart held private items at the deadline: nothing was checked out");
    expect(
      describeActivity(
        entry(3, "order.placed", { number: "CRT-000007", total: 12.5, automatic: true }),
        null,
      ),
    ).toBe("Ben checked out order CRT-000007 ($12.50) automatically at the deadline");
  });

  it("says who paid the shop when several payers were named at checkout", () => {
    expect(
      describeActivity(
        entry(3, "order.placed", {
          number: "CRT-000008",
          total: 12.5,
          payers: [
            { name: "Ann", amount: 10 },
            { name: "Ben", amount: 2.5 },
          ],
        }),
        null,
      ),
    ).toBe("Ben checked out order CRT-000008 ($12.50), paid by Ann $10.00 and Ben $2.50");
  });
});
