/**
 * The one split function: for the cart, the summary and the order
 * alike. Integer cents throughout; every division uses the largest-remainder method, so the shares
 * add up to each line, and all shares to the cart's subtotal, fees, tax and total, exactly.
 *
 * Zod-free on purpose: the web computes previews with it.
 */
import { apportion, orderSummary, type OrderSummary } from "./pricing.ts";
import { PERMISSIONS, type Role } from "./permissions.ts";

export const SPLIT_MODES = ["by_adder", "equal", "weights"] as const;
export const FEE_MODES = ["proportional", "equal", "creator"] as const;
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

/**
 * Who carries each line and how much: its sharers in equal parts when set, else the policy
 * (the adder alone; every payer equally; payers by weight). Then fees per the policy's `fees`
 * (proportional to subtotals, equal among members with a subtotal, or all on the creator), and
 * tax on each member's subtotal plus fees. Members are listed by name, then id.
 */
export function splitShares(
  lines: readonly SplitInputLine[],
  members: readonly SplitInputMember[],
  policy: SplitPolicy = DEFAULT_SPLIT_POLICY,
): { summary: OrderSummary; shares: ShareCents[] } {
  const payers = members.filter((m) => carriesShare(m.role)).map((m) => m.userId);
  const payerSet = new Set(payers);
  const names = new Map(lines.map((l) => [l.addedBy, l.addedByName ?? ""]));
  for (const m of members) names.set(m.userId, m.name);
  const subtotals = new Map<string, number>(payers.map((id) => [id, 0]));
  const add = (to: Map<string, number>, parts: Map<string, number>) => {
    for (const [id, cents] of parts) to.set(id, (to.get(id) ?? 0) + cents);
  };

  for (const line of lines) {
    const sharers = (line.sharedWith ?? []).filter((id) => payerSet.has(id));
    let weights: Array<{ key: string; weight: number }>;
    if (sharers.length > 0) {
      weights = [...new Set(sharers)].map((key) => ({ key, weight: 1 }));
    } else if (policy.mode === "equal" && payers.length > 0) {
      weights = payers.map((key) => ({ key, weight: 1 }));
    } else if (policy.mode === "weights" && payers.some((id) => weightOf(policy, id) > 0)) {
      weights = payers.map((key) => ({ key, weight: weightOf(policy, key) }));
    } else {
      // By adder, and the fallback of every mode that leaves nobody to pay (every weight 0).
      weights = [{ key: line.addedBy, weight: 1 }];
    }
    add(subtotals, apportion(line.lineTotal, weights));
  }

  const subtotal = [...subtotals.values()].reduce((sum, cents) => sum + cents, 0);
  const summary = orderSummary(subtotal);
  const bySubtotal = [...subtotals].map(([key, weight]) => ({ key, weight }));
  const creator = members.find((m) => m.role === "creator")?.userId;
  const fees =
    policy.fees === "equal"
      ? apportion(
          summary.fees,
          bySubtotal.filter((w) => w.weight > 0).map((w) => ({ ...w, weight: 1 })),
        )
      : policy.fees === "creator" && creator
        ? new Map([[creator, summary.fees]])
        : apportion(summary.fees, bySubtotal);
  // Tax is charged on subtotal plus fees; with proportional fees that is the subtotal's proportion.
  const taxWeights =
    policy.fees === "proportional" || !creator
      ? bySubtotal
      : bySubtotal.map((w) => ({ key: w.key, weight: w.weight + (fees.get(w.key) ?? 0) }));
  const tax = apportion(summary.tax, taxWeights);

  const ids = new Set([...subtotals.keys(), ...fees.keys(), ...tax.keys()]);
  const shares = [...ids]
    .map((userId) => {
      const s = subtotals.get(userId) ?? 0;
      const f = fees.get(userId) ?? 0;
      const t = tax.get(userId) ?? 0;
      return {
        userId,
        name: names.get(userId) ?? "",
        subtotal: s,
        fees: f,
        tax: t,
        total: s + f + t,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || (a.userId < b.userId ? -1 : 1));
  return { summary, shares };
}
