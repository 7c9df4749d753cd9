/**
 * The one split function: for the cart, the summary and the order alike. Each member's share is
 * summed exactly (rationals) over the whole cart and rounded once, so every share is within a cent
 * of its exact proportion and all shares add up to the cart's subtotal, fees, tax and total.
 *
 * Zod-free on purpose: the web computes previews with it.
 */
import { orderSummary, type OrderSummary } from "./pricing.ts";
import { PERMISSIONS, type Role } from "./permissions.ts";
import type { Rational } from "./rational.ts";
import { largestRemainder, roundParts, tieRanks } from "./rounding.ts";
import { exactFigures } from "./split-exact.ts";
import type { Share } from "./carts.ts";
import { fromCents } from "./money.ts";

import type { FEE_MODES, SPLIT_MODES } from "./presets.ts";

// The modes are listed in presets.ts, which pulls in nothing: the web's first load reads them.
export { FEE_MODES, SPLIT_MODES } from "./presets.ts";
export type SplitMode = (typeof SPLIT_MODES)[number];
export type FeeMode = (typeof FEE_MODES)[number];

export interface SplitPolicy {
  mode: SplitMode;
  /**
   * userId -> 0..100 under "weights" (a child at 50 next to adults at 100 pays half). A member with
   * no weight here has DEFAULT_WEIGHT, 100; 0 carries nothing. When every paying member's weight is
   * 0, each line falls back to its adder.
   */
  weights: Record<string, number>;
  fees: FeeMode;
}

/** The weight of a member the policy names no weight for (100: a missing weight counts as a full share). */
export const DEFAULT_WEIGHT = 100;

/** A member's weight under `policy`: theirs when set, else DEFAULT_WEIGHT. */
export const weightOf = (policy: Pick<SplitPolicy, "weights">, userId: string): number =>
  policy.weights[userId] ?? DEFAULT_WEIGHT;

/** Today's rule, and every session's until its creator picks another. */
export const DEFAULT_SPLIT_POLICY: SplitPolicy = {
  mode: "by_adder",
  weights: {},
  fees: "proportional",
};

export interface SplitInputLine {
  /** price x quantity, cents */
  lineTotal: number;
  addedBy: string;
  /** The adder's name, for an adder who is no longer a member (their lines stay). */
  addedByName?: string;
  /** Members who share this line in equal parts; empty: the session's policy applies. */
  sharedWith?: readonly string[];
}

export interface SplitInputMember {
  userId: string;
  name: string;
  role: Role;
}

export interface ShareCents extends OrderSummary {
  userId: string;
  name: string;
}

/**
 * Who carries a share of the cart: the roles that may add to it (the permissions table's
 * `cart.add`: the creator and participants). Viewers and pending requesters never pay. The split,
 * the server's checks and its SQL, and the web's lists of payers all ask this.
 */
export const SHARE_CARRYING_ROLES = PERMISSIONS["cart.add"].allow;

/** Whether a member with this role carries a share (see SHARE_CARRYING_ROLES). */
export function carriesShare(role: Role | null | undefined): boolean {
  return role != null && (SHARE_CARRYING_ROLES as readonly Role[]).includes(role);
}

/**
 * The lines a member carries with nobody else: lines they added that no other paying member
 * shares. Under "by adder" (or any policy that falls back to the adder) these are theirs alone,
 * so a member with any cannot become a viewer, who never pays: the lines are removed or shared
 * with others first.
 */
export function linesCarriedAlone(
  lines: readonly Pick<SplitInputLine, "addedBy" | "sharedWith">[],
  members: readonly Pick<SplitInputMember, "userId" | "role">[],
  userId: string,
): number {
  const others = new Set(
    members.filter((m) => carriesShare(m.role) && m.userId !== userId).map((m) => m.userId),
  );
  return lines.filter(
    (l) => l.addedBy === userId && !(l.sharedWith ?? []).some((id) => others.has(id)),
  ).length;
}

/** What the server answers (409 MEMBER_HAS_LINES) and the web shows before trying. */
export function memberHasLinesMessage(name: string, lines: number): string {
  const them = lines === 1 ? "it" : "them";
  return `${name} still has ${lines} ${lines === 1 ? "line" : "lines"} in the cart: remove ${them} or share ${them} with others first.`;
}

/**
 * What the server answers (409 MEMBER_HAS_LINES) to removing a member, or to a member leaving
 * (`name` null), who still has lines in the cart and did not say what becomes of them.
 */
export function leavingWithLinesMessage(name: string | null, lines: number): string {
  const count = `${lines} ${lines === 1 ? "line" : "lines"}`;
  const them = lines === 1 ? "it" : "them";
  return `${name === null ? "You still have" : `${name} still has`} ${count} in the cart: remove ${them} or give ${them} to someone who stays.`;
}

export interface Split {
  summary: OrderSummary;
  /** Members by name, then id; each within a cent of their exact share (`exact`). */
  shares: ShareCents[];
  /** Each share's exact total before rounding, by member id (what several payers are owed from). */
  exact: ReadonlyMap<string, Rational>;
}

/**
 * Who carries each line and how much: its sharers in equal parts when set, else the policy
 * (the adder alone; every payer equally; payers by weight). Then fees per the policy's `fees`
 * (proportional to subtotals, equal among members with a subtotal, or all on the creator), and
 * tax on each member's subtotal plus fees. Members are listed by name, then id.
 *
 * Each member's share is summed exactly over the whole cart and rounded once: their total is the
 * largest-remainder rounding of the exact total (within a cent of it; all add up to the cart's
 * total), ties in the order `seed` (the cart's id) draws (tieRanks); their subtotal, fees and tax
 * are a controlled rounding of the exact figures (each the floor or ceiling of its exact value)
 * adding up to that total and, over all members, to the cart's subtotal, fees and tax. Where no
 * such rounding meets the largest-remainder totals (about one cart in 50,000), totals move to
 * their other rounding until one does (decision 034).
 */
export function splitShares(
  lines: readonly SplitInputLine[],
  members: readonly SplitInputMember[],
  policy: SplitPolicy,
  seed: string,
): Split {
  return splitWith(lines, members, policy, seed, 0);
}

/**
 * splitShares with `orderFees` (signed cents: an adjustment's delivery fee difference or
 * discount) on top of the fees, untaxed, shared by the policy's fee rule among the members with a
 * subtotal (all on the creator under "creator", or when nobody carries a subtotal) and rounded
 * with the rest, folded into each member's fees. The re-split after adjustments (adjust.ts).
 */
export function splitWith(
  lines: readonly SplitInputLine[],
  members: readonly SplitInputMember[],
  policy: SplitPolicy,
  seed: string,
  orderFees: number,
): Split {
  const { summary, ids, names, figures, targets } = splitFigures(lines, members, policy, orderFees);
  if (ids.length === 0) return { summary, shares: [], exact: new Map() };
  // Rounded once: each total by largest remainder, then subtotal, fees and tax to match.
  const ranks = tieRanks(seed, ids);
  const totals = largestRemainder(figures.totals, summary.total, ranks);
  const [subs, fee, taxes] = roundParts(figures.cells, targets, totals, figures.totals, {
    rows: [0, 1, 2],
    cols: ranks,
  });
  const shares = ids
    .map((userId, i) => ({
      userId,
      name: names.get(userId) ?? "",
      subtotal: subs![i]!,
      fees: fee![i]!,
      tax: taxes![i]!,
      total: subs![i]! + fee![i]! + taxes![i]!,
    }))
    .sort((a, b) => a.name.localeCompare(b.name) || (a.userId < b.userId ? -1 : 1));
  return { summary, shares, exact: new Map(ids.map((id, i) => [id, figures.exact[i]!])) };
}

/**
 * A cart's split before rounding: who carries a share (`ids`: members, then adders who left), the
 * exact figures (3 rows: subtotal, fees, tax, by member) and the rows' targets (the cart's
 * subtotal, fees with `orderFees`, tax). splitWith() rounds them; fair-rounding.test.ts reads them
 * to check that rounding.
 */
export function splitFigures(
  lines: readonly SplitInputLine[],
  members: readonly SplitInputMember[],
  policy: SplitPolicy,
  orderFees: number,
): {
  summary: OrderSummary;
  ids: string[];
  names: Map<string, string>;
  figures: ReturnType<typeof exactFigures>;
  targets: [number, number, number];
} {
  const payers = members.filter((m) => carriesShare(m.role)).map((m) => m.userId);
  const payerSet = new Set(payers);
  const names = new Map(lines.map((l) => [l.addedBy, l.addedByName ?? ""]));
  for (const m of members) names.set(m.userId, m.name);
  // What each member carries: cents alone, the cents under the policy's weights (one pool, split
  // once), and the cents of lines shared by n members; members first, then adders who left.
  const ids = [...payers];
  const rowOf = new Map(ids.map((id, i) => [id, i]));
  const own = ids.map(() => 0);
  const shared = new Map<number, number[]>();
  const row = (id: string) => {
    let i = rowOf.get(id);
    if (i === undefined) {
      rowOf.set(id, (i = ids.push(id) - 1));
      own.push(0);
    }
    return i;
  };
  const weights =
    policy.mode === "equal"
      ? payers.map(() => 1)
      : policy.mode === "weights" && payers.some((id) => weightOf(policy, id) > 0)
        ? payers.map((id) => weightOf(policy, id))
        : null;
  let pool = 0;
  for (const line of lines) {
    const sharers = line.sharedWith?.length
      ? [...new Set(line.sharedWith.filter((id) => payerSet.has(id)))]
      : [];
    if (sharers.length > 0) {
      const parts = shared.get(sharers.length) ?? [];
      shared.set(sharers.length, parts);
      for (const id of sharers) {
        const i = row(id);
        parts[i] = (parts[i] ?? 0) + line.lineTotal;
      }
    } else if (weights && payers.length > 0) {
      pool += line.lineTotal;
    } else {
      // By adder, and the fallback of every mode that leaves nobody to pay (every weight 0).
      own[row(line.addedBy)]! += line.lineTotal;
    }
  }
  const subtotal = lines.reduce((sum, l) => sum + l.lineTotal, 0);
  const { fees, tax, total } = orderSummary(subtotal);
  const summary = { subtotal, fees: fees + orderFees, tax, total: total + orderFees };
  const targets: [number, number, number] = [subtotal, fees + orderFees, tax];
  const noFigures = {
    cells: { floors: [], rems: [] },
    totals: { floors: [], rems: [] },
    exact: [],
  };
  if (ids.length === 0) return { summary, ids, names, figures: noFigures, targets };

  const carrying = ids.map((_, i) => own[i]! > 0 || (weights?.[i] ?? 0) * pool > 0);
  for (const parts of shared.values()) parts.forEach((cents, i) => (carrying[i] ||= cents > 0));
  const creatorId = members.find((m) => m.role === "creator")?.userId;
  const creator = creatorId === undefined ? undefined : rowOf.get(creatorId);
  const only = (i: number) => ids.map((_, k) => (k === i ? 1 : 0));
  const rule =
    policy.fees === "creator" && creator !== undefined
      ? only(creator)
      : !carrying.includes(true)
        ? only(creator ?? firstByName(ids, names))
        : policy.fees === "equal"
          ? carrying.map(Number)
          : null;
  const figures = exactFigures(
    { own, pool, weights: weights && ids.map((_, i) => weights[i] ?? 0), shared },
    { subtotal, fees, tax, orderFees },
    rule,
  );
  return { summary, ids, names, figures, targets };
}

/** The member listed first (by name, then id). */
function firstByName(ids: readonly string[], names: ReadonlyMap<string, string>): number {
  let best = 0;
  ids.forEach((id, i) => {
    const [a, b] = [names.get(id) ?? "", names.get(ids[best]!) ?? ""];
    if (a.localeCompare(b) < 0 || (a === b && id < ids[best]!)) best = i;
  });
  return best;
}

/**
 * A share as the API shows it, against the member's own budget (a warning, never a block). Kept
 * apart from the cart's schemas (carts.ts) so the pages that show shares load without zod.
 */
export function shareWithBudget(share: ShareCents, budgetCents: number | null): Share {
  return {
    userId: share.userId,
    name: share.name,
    subtotal: fromCents(share.subtotal),
    fees: fromCents(share.fees),
    tax: fromCents(share.tax),
    total: fromCents(share.total),
    budget: budgetCents === null ? null : fromCents(budgetCents),
    overBudget: budgetCents !== null && share.total > budgetCents,
  };
}
