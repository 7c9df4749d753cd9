/**
 * The two pure rules of several payers and fewer transfers, shared by the server and the web (no
 * zod, so pages of the first load may use them): who owes which payer what, to the cent, and the
 * fewest transfers that settle a set of net balances. Money here is integer cents.
 */
import type { Order } from "./orders.ts";
import { add, ceilOf, compare, floorOf, ratio, times, type Rational } from "./rational.ts";
import { largestRemainder, roundTable, tieRanks } from "./rounding.ts";

/**
 * Splits `total` into parts proportional to `weights` (largest remainder; ties go to the earlier
 * weight), so the parts add up to `total` exactly. All-zero weights: everything to the first.
 */
export function allocate(total: number, weights: readonly number[]): number[] {
  return scaleTo(total, weights, [...weights.keys()]);
}

/** `allocate` with ties by `ranks` (tieRanks). */
function scaleTo(total: number, weights: readonly number[], ranks: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (weights.length === 0) return [];
  if (sum <= 0) return weights.map((_, i) => (i === 0 ? total : 0));
  const exact = weights.map((w) => ratio(BigInt(total) * BigInt(w), sum));
  return largestRemainder(exact, total, ranks);
}

/**
 * What several payers' amounts become when the order's total changes (an adjustment): each
 * payer's amount scaled to `total` in proportion to what they paid, by largest remainder, ties in
 * the order `seed` (the order's cart id) draws, so they add up to `total` exactly and no payer is
 * always the one who gets the extra cent.
 */
export const scalePayers = (
  total: number,
  payers: readonly { userId: string; cents: number }[],
  seed: string,
): number[] =>
  scaleTo(
    total,
    payers.map((p) => p.cents),
    tieRanks(
      seed,
      payers.map((p) => p.userId),
    ),
  );

export interface Owed {
  /** Who owes (a share's member). */
  debtor: string;
  /** Whom (a payer). A debtor who is also a payer has a part owed to themself: no debt. */
  payer: string;
  cents: number;
}

/**
 * Who owes which payer what: every share is owed to the payers in proportion to what each paid
 * the shop, each part within a cent of exact: a share's exact total (`exact`, the split's value
 * before rounding) × what the payer paid (`paid`) / what all paid. Each share's parts add up to
 * the share (`cents`); each payer's to their amount (`cents`: what they paid scaled to the shares'
 * sum, scalePayers) whenever that has a rounding with every part within a cent; in the rare table
 * where it has none, a payer's parts add up to the other rounding of their exact amount, a cent
 * off (roundTable). Without `exact`, or with one a share is not a rounding of (an order rounded
 * by an older rule), the shares themselves are taken as exact. Ties in the order `seed` (the
 * order's cart id) draws. Zero parts are left out.
 */
export function owedToPayers(
  shares: readonly { userId: string; cents: number; exact?: Rational | undefined }[],
  payers: readonly { userId: string; cents: number; paid?: number | undefined }[],
  seed = "",
): Owed[] {
  const total = shares.reduce((a, s) => a + s.cents, 0);
  if (shares.length === 0 || payers.length === 0 || total === 0) return [];
  const paid = payers.map((p) => p.paid ?? p.cents);
  const weights = paid.reduce((a, b) => a + b, 0) > 0 ? paid : payers.map((p) => p.cents);
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0) {
    return shares
      .map((s) => ({ debtor: s.userId, payer: payers[0]!.userId, cents: s.cents }))
      .filter((o) => o.cents > 0);
  }
  const fits =
    shares.every((s) => s.exact && floorOf(s.exact) <= s.cents && s.cents <= ceilOf(s.exact)) &&
    compare(shares.map((s) => s.exact!).reduce(add), ratio(total)) === 0;
  const rows = shares.map((s) => (fits ? s.exact! : ratio(s.cents)));
  const ranks = {
    rows: tieRanks(
      seed,
      shares.map((s) => s.userId),
    ),
    cols: tieRanks(
      seed,
      payers.map((p) => p.userId),
    ),
  };
  const targets = payers.map((p) => p.cents);
  const columns =
    targets.reduce((a, b) => a + b, 0) === total ? targets : scaleTo(total, weights, ranks.cols);
  const exact = rows.map((r) => weights.map((w) => times(r, BigInt(w), BigInt(sum))));
  const cells = roundTable(
    exact,
    shares.map((s) => s.cents),
    columns,
    ranks,
    "cols",
  );
  return shares.flatMap((s, i) =>
    payers
      .map((p, j) => ({ debtor: s.userId, payer: p.userId, cents: cells[i]![j]! }))
      .filter((o) => o.cents > 0),
  );
}

export interface Transfer {
  from: string;
  to: string;
  cents: number;
}

/**
 * The fewest transfers, by the greedy rule, that bring every net balance to zero: the one who owes
 * most pays the one owed most, as much as settles one of them, until nobody is owed. `nets` must
 * add up to zero (positive: owed money). Each step settles at least one person, so there are at
 * most (people with a balance − 1) transfers. Ties: by id, so the plan is the same every time.
 */
export function settlePlan(nets: ReadonlyMap<string, number>): Transfer[] {
  const owed = [...nets].filter(([, c]) => c > 0).map(([id, c]) => ({ id, c }));
  const owing = [...nets].filter(([, c]) => c < 0).map(([id, c]) => ({ id, c: -c }));
  const byLargest = (a: { id: string; c: number }, b: { id: string; c: number }) =>
    b.c - a.c || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const transfers: Transfer[] = [];
  for (;;) {
    owed.sort(byLargest);
    owing.sort(byLargest);
    const creditor = owed[0];
    const debtor = owing[0];
    if (!creditor || !debtor || creditor.c === 0 || debtor.c === 0) break;
    const cents = Math.min(creditor.c, debtor.c);
    transfers.push({ from: debtor.id, to: creditor.id, cents });
    creditor.c -= cents;
    debtor.c -= cents;
    if (creditor.c === 0) owed.shift();
    if (debtor.c === 0) owing.shift();
  }
  return transfers;
}

/**
 * Who owes a share's credit back, in words: the payers its parts name ("Ann and Cy"), else the
 * payee. The same on the order page and the receipt.
 */
export function creditOwedBy(order: Order, userId: string): string {
  const names = order.parts
    .filter((p) => p.debtor === userId && p.credit > 0)
    .map(
      (p) =>
        order.payers.find((x) => x.user._id === p.payer)?.user.name ??
        order.split.find((x) => x.userId === p.payer)?.name ??
        order.payee.name,
    );
  return names.length > 0 ? names.join(" and ") : order.payee.name;
}
