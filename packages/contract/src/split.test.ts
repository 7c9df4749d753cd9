import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { can, SESSION_ROLES, type Role } from "./permissions.ts";
import {
  carriesShare,
  linesCarriedAlone,
  memberHasLinesMessage,
  DEFAULT_SPLIT_POLICY,
  DEFAULT_WEIGHT,
  FEE_MODES,
  SPLIT_MODES,
  splitShares,
  type SplitInputLine,
  type SplitInputMember,
  type SplitPolicy,
} from "./split.ts";

const RUNS = { numRuns: 1_000 };

/** A session: members with roles (one creator), lines added by creators and participants. */
const cart = fc
  .array(fc.constantFrom<Role>("participant", "viewer", "pending"), { maxLength: 5 })
  .chain((others) => {
    const members: SplitInputMember[] = [
      { userId: "u0", name: "Creator", role: "creator" },
      ...others.map((role, i) => ({ userId: `u${i + 1}`, name: `M${i + 1}`, role })),
    ];
    const adders = members.filter((m) => m.role === "creator" || m.role === "participant");
    const ids = members.map((m) => m.userId);
    const line = fc.record({
      lineTotal: fc
        .integer({ min: 1, max: 100_000 })
        .chain((price) => fc.integer({ min: 1, max: 99 }).map((q) => price * q)),
      addedBy: fc.constantFrom(...adders.map((m) => m.userId)),
      sharedWith: fc.oneof(
        { weight: 3, arbitrary: fc.constant([] as string[]) },
        fc.subarray(ids, { minLength: 1 }),
      ),
    });
    const policy = fc.record({
      mode: fc.constantFrom(...SPLIT_MODES),
      weights: fc.dictionary(fc.constantFrom(...ids), fc.integer({ min: 0, max: 100 })),
      fees: fc.constantFrom(...FEE_MODES),
    });
    return fc.record({
      members: fc.constant(members),
      lines: fc.array(line, { maxLength: 20 }),
      policy,
      seed: fc.uuid(),
    });
  });

const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

describe("splitShares (property tests, 1,000 carts each)", () => {
  it("shares add up to the cart's subtotal, fees, tax and total exactly, for any policy", () => {
    fc.assert(
      fc.property(cart, ({ lines, members, policy, seed }) => {
        const { summary, shares } = splitShares(lines, members, policy, seed);
        expect(summary.subtotal).toBe(sum(lines.map((l) => l.lineTotal)));
        expect(sum(shares.map((s) => s.subtotal))).toBe(summary.subtotal);
        expect(sum(shares.map((s) => s.fees))).toBe(summary.fees);
        expect(sum(shares.map((s) => s.tax))).toBe(summary.tax);
        expect(sum(shares.map((s) => s.total))).toBe(summary.total);
        for (const s of shares) expect(s.total).toBe(s.subtotal + s.fees + s.tax);
      }),
      RUNS,
    );
  });

  it("never gives a negative share, and viewers and pending requesters carry nothing", () => {
    fc.assert(
      fc.property(cart, ({ lines, members, policy, seed }) => {
        const { shares } = splitShares(lines, members, policy, seed);
        const free = new Set(
          members.filter((m) => m.role === "viewer" || m.role === "pending").map((m) => m.userId),
        );
        for (const s of shares) {
          for (const part of [s.subtotal, s.fees, s.tax, s.total])
            expect(part).toBeGreaterThanOrEqual(0);
          if (free.has(s.userId)) expect(s.total).toBe(0);
        }
      }),
      RUNS,
    );
  });

  it("with the default policy, each member pays for what they added, fees and tax by subtotal", () => {
    fc.assert(
      fc.property(cart, ({ lines, members, seed }) => {
        const own = lines.map((l) => ({ ...l, sharedWith: [] }));
        const { summary, shares } = splitShares(own, members, DEFAULT_SPLIT_POLICY, seed);
        for (const s of shares) {
          const added = sum(own.filter((l) => l.addedBy === s.userId).map((l) => l.lineTotal));
          expect(s.subtotal).toBe(added);
          if (summary.subtotal > 0) {
            expect(Math.abs(s.fees - (summary.fees * added) / summary.subtotal)).toBeLessThan(1);
            expect(Math.abs(s.tax - (summary.tax * added) / summary.subtotal)).toBeLessThan(1);
          }
        }
      }),
      RUNS,
    );
  });

  it("splits a shared line in equal parts among its paying sharers, within a cent", () => {
    fc.assert(
      fc.property(cart, ({ members, seed }) => {
        const payers = members.filter((m) => m.role === "creator" || m.role === "participant");
        const line: SplitInputLine = {
          lineTotal: 1001,
          addedBy: "u0",
          sharedWith: members.map((m) => m.userId),
        };
        const { shares } = splitShares([line], members, DEFAULT_SPLIT_POLICY, seed);
        for (const p of payers) {
          const share = shares.find((s) => s.userId === p.userId)!;
          expect(Math.abs(share.subtotal - 1001 / payers.length)).toBeLessThan(1);
        }
      }),
      RUNS,
    );
  });

  it("a member with no weight carries exactly as one with weight 100", () => {
    fc.assert(
      fc.property(cart, ({ lines, members, policy, seed }) => {
        const full = Object.fromEntries(
          members.map((m) => [m.userId, policy.weights[m.userId] ?? DEFAULT_WEIGHT]),
        );
        expect(splitShares(lines, members, policy, seed)).toEqual(
          splitShares(lines, members, { ...policy, weights: full }, seed),
        );
      }),
      RUNS,
    );
  });

  it("does not depend on the order of lines or members", () => {
    fc.assert(
      fc.property(cart, ({ lines, members, policy, seed }) => {
        expect(splitShares([...lines].reverse(), [...members].reverse(), policy, seed)).toEqual(
          splitShares(lines, members, policy, seed),
        );
      }),
      RUNS,
    );
  });
});

describe("splitShares, by example", () => {
  const members: SplitInputMember[] = [
    { userId: "ann", name: "Ann", role: "creator" },
    { userId: "ben", name: "Ben", role: "participant" },
    { userId: "kid", name: "Kid", role: "participant" },
    { userId: "vic", name: "Vic", role: "viewer" },
  ];
  const milk: SplitInputLine = { lineTotal: 300, addedBy: "ann" };
  const wine: SplitInputLine = { lineTotal: 2000, addedBy: "ben", sharedWith: ["ann", "ben"] };

  it("weights: a child at 50 next to adults at 100 pays half", () => {
    const policy: SplitPolicy = {
      mode: "weights",
      weights: { ann: 100, ben: 100, kid: 50 },
      fees: "proportional",
    };
    const { shares } = splitShares([milk], members, policy, "cart-1");
    expect(shares.map((s) => [s.name, s.subtotal])).toEqual([
      ["Ann", 120],
      ["Ben", 120],
      ["Kid", 60],
    ]);
  });

  it("weights: a member with no weight has 100, so 50 for the child alone gives the child half", () => {
    const policy: SplitPolicy = { mode: "weights", weights: { kid: 50 }, fees: "proportional" };
    const { shares } = splitShares([milk], members, policy, "cart-1");
    expect(shares.map((s) => [s.name, s.subtotal])).toEqual([
      ["Ann", 120],
      ["Ben", 120],
      ["Kid", 60],
    ]);
    // A $37.93 cart: the child pays half of each adult, to the cent, adding up.
    const groceries: SplitInputLine = { lineTotal: 3793, addedBy: "kid" };
    const by = Object.fromEntries(
      splitShares([groceries], members, policy, "cart-1").shares.map((s) => [s.name, s.subtotal]),
    );
    expect(by).toEqual({ Ann: 1517, Ben: 1517, Kid: 759 });
  });

  it("weights: untouched weights (none saved) are everyone at 100, an equal split", () => {
    const policy: SplitPolicy = { mode: "weights", weights: {}, fees: "proportional" };
    const { shares } = splitShares([milk], members, policy, "cart-1");
    expect(shares.map((s) => [s.name, s.subtotal])).toEqual([
      ["Ann", 100],
      ["Ben", 100],
      ["Kid", 100],
    ]);
  });

  it("weights: 0 pays nothing; when every payer's weight is 0, each line falls back to its adder", () => {
    const one: SplitPolicy = { mode: "weights", weights: { ben: 0 }, fees: "proportional" };
    expect(
      splitShares([milk], members, one, "cart-1").shares.map((s) => [s.name, s.subtotal]),
    ).toEqual([
      ["Ann", 150],
      ["Ben", 0],
      ["Kid", 150],
    ]);
    const none: SplitPolicy = {
      mode: "weights",
      weights: { ann: 0, ben: 0, kid: 0 },
      fees: "proportional",
    };
    const lines = [milk, { lineTotal: 500, addedBy: "kid" }];
    expect(
      splitShares(lines, members, none, "cart-1").shares.map((s) => [s.name, s.subtotal]),
    ).toEqual([
      ["Ann", 300],
      ["Ben", 0],
      ["Kid", 500],
    ]);
  });

  it("equal with fees on the creator: the wine stays with its two sharers", () => {
    const policy: SplitPolicy = { mode: "equal", weights: {}, fees: "creator" };
    const { summary, shares } = splitShares([milk, wine], members, policy, "cart-1");
    const by = Object.fromEntries(shares.map((s) => [s.name, s]));
    expect(by.Ann!.subtotal).toBe(100 + 1000);
    expect(by.Ben!.subtotal).toBe(100 + 1000);
    expect(by.Kid!.subtotal).toBe(100);
    expect(by.Ann!.fees).toBe(summary.fees);
    expect(by.Vic).toBeUndefined();
  });
});

describe("linesCarriedAlone", () => {
  const members = [
    { userId: "ann", role: "creator" as const },
    { userId: "ben", role: "participant" as const },
    { userId: "vic", role: "viewer" as const },
  ];
  it("counts the lines a member added that no other paying member shares", () => {
    const lines = [
      { addedBy: "ben" },
      { addedBy: "ben", sharedWith: ["ben"] },
      { addedBy: "ben", sharedWith: ["vic"] },
      { addedBy: "ben", sharedWith: ["ben", "ann"] },
      { addedBy: "ann", sharedWith: ["ben"] },
    ];
    expect(linesCarriedAlone(lines, members, "ben")).toBe(3);
    expect(linesCarriedAlone(lines, members, "ann")).toBe(0);
    expect(linesCarriedAlone([], members, "ben")).toBe(0);
  });
  it("words the refusal for one line and for several", () => {
    expect(memberHasLinesMessage("Ben", 1)).toBe(
      "Ben still has 1 line in the cart: remove it or share it with others first.",
    );
    expect(memberHasLinesMessage("Ben", 2)).toBe(
      "Ben still has 2 lines in the cart: remove them or share them with others first.",
    );
  });
});

describe("who carries a share", () => {
  it("is the creator and participants: the roles the permissions table lets add to the cart", () => {
    expect(SESSION_ROLES.filter(carriesShare)).toEqual(["creator", "participant"]);
    for (const role of SESSION_ROLES) expect(carriesShare(role)).toBe(can(role, "cart.add"));
    expect(carriesShare(null)).toBe(false);
  });
});
