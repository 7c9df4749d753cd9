/**
 * The two pure rules of several payers and fewer transfers, shared by the server and the web (no
 * zod, so pages of the first load may use them): who owes which payer what, to the cent, and the
 * fewest transfers that settle a set of net balances. Money here is integer cents.
 */
import type { Order } from "./orders.ts";

/**
 * Splits `total` into parts proportional to `weights` (largest remainder; ties go to the earlier
 * weight), so the parts add up to `total` exactly. All-zero weights: everything to the first.
 */
export function allocate(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (weights.length === 0) return [];
  if (sum <= 0) return weights.map((_, i) => (i === 0 ? total : 0));
  const exact = weights.map((w) => (total * w) / sum);
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const order = exact
    .map((e, i) => ({ i, frac: e - Math.floor(e) }))
    .sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    parts[i]! += 1;
    left -= 1;
  }
  return parts;
}

export interface Owed {
  /** Who owes (a share's member). */
  debtor: string;
  /** Whom (a payer). A debtor who is also a payer has a part owed to themself: no debt. */
  payer: string;
  cents: number;
}

/**
 * Who owes which payer what: every share is owed to the payers in proportion to what each paid,
 * to the cent. Each share's parts add up to the share exactly; each payer's parts add up to their
 * amount scaled to the shares' sum (exactly their amount when the shares add up to the total, as
 * they do). The rounding is deterministic: shares and payers in the order given, the largest
 * remainders first. Zero parts are left out.
 */
export function owedToPayers(
  shares: readonly { userId: string; cents: number }[],
  payers: readonly { userId: string; cents: number }[],
): Owed[] {
  const sharesSum = shares.reduce((a, s) => a + s.cents, 0);
  if (shares.length === 0 || payers.length === 0 || sharesSum === 0) return [];
  // What each payer is owed in all, so the columns add up as well as the rows.
  const column = allocate(
    sharesSum,
    payers.map((p) => p.cents),
  );
  const exact = shares.map((s) => payers.map((_, j) => (s.cents * column[j]!) / sharesSum));
  const cells = exact.map((row) => row.map(Math.floor));
  const rowLeft = shares.map((s, i) => s.cents - cells[i]!.reduce((a, b) => a + b, 0));
  const colLeft = column.map((c, j) => c - cells.reduce((a, row) => a + row[j]!, 0));
  // The cents the floors dropped go to cells with a remainder, each at most one, so every part
  // stays within a cent of its proportion: the largest remainders first, then, where those left a
  // row short, along an augmenting path (a rounding always exists; this finds one).
  const open = exact.map((row) => row.map((e) => e - Math.floor(e) > 1e-9));
  const given = exact.map((row) => row.map(() => false));
  const candidates = exact
    .flatMap((row, i) => row.map((e, j) => ({ i, j, frac: e - Math.floor(e) })))
    .filter((c) => open[c.i]![c.j])
    .sort((a, b) => b.frac - a.frac || a.i - b.i || a.j - b.j);
  for (const { i, j } of candidates) {
    if (rowLeft[i]! > 0 && colLeft[j]! > 0) {
      given[i]![j] = true;
      rowLeft[i]! -= 1;
      colLeft[j]! -= 1;
    }
  }
  for (let i = 0; i < shares.length; i++) {
    while (rowLeft[i]! > 0 && augment(i, open, given, colLeft)) rowLeft[i]! -= 1;
  }
  exact.forEach((row, i) => row.forEach((_, j) => (cells[i]![j]! += given[i]![j] ? 1 : 0)));
  return shares.flatMap((s, i) =>
    payers
      .map((p, j) => ({ debtor: s.userId, payer: p.userId, cents: cells[i]![j]! }))
      .filter((o) => o.cents > 0),
  );
}

/**
 * One more cent for row `start`: a path row → column (a cell with a remainder not yet given) →
 * row (a cell given, taken back) → ... ending at a column still short. Breadth first, rows and
 * columns in order, so the result is deterministic.
 */
function augment(start: number, open: boolean[][], given: boolean[][], colLeft: number[]): boolean {
  const rowOfCol = new Map<number, number>();
  const colOfRow = new Map<number, number>([[start, -1]]);
  const queue = [start];
  while (queue.length > 0) {
    const i = queue.shift()!;
    for (let j = 0; j < colLeft.length; j++) {
      if (!open[i]![j] || given[i]![j] || rowOfCol.has(j)) continue;
      rowOfCol.set(j, i);
      if (colLeft[j]! > 0) {
        // Give each path cell row → column, take back each column → row cell.
        let col = j;
        for (;;) {
          const row = rowOfCol.get(col)!;
          given[row]![col] = true;
          if (row === start) break;
          col = colOfRow.get(row)!;
          given[row]![col] = false;
        }
        colLeft[j]! -= 1;
        return true;
      }
      for (let k = 0; k < given.length; k++) {
        if (given[k]![j] && !colOfRow.has(k)) {
          colOfRow.set(k, j);
          queue.push(k);
        }
      }
    }
  }
  return false;
}

/**
 * What is still open between a share's member and each payer, to the cent, signed: positive, the
 * member owes the payer; negative, a credit, the payer owes the member back. `parts` are the
 * share's parts of its current (adjusted) total, the debtor's own part among them when they are a
 * payer; `paid` is everything paid towards the share (`paid_cents`, less credits paid back),
 * `paidTo` the net of recorded transfers with each payer (part of `paid`: what the member sent,
 * less what the payer paid back). The rest of `paid` went through the payee (marked paid and
 * confirmed before an adjustment reopened or lowered the share): it covers the debtor's own part
 * first (they paid the shop), then the other payers in proportion to their parts. Each payer
 * lacks their part less what reached them; the share's balance is the sum of that. Above zero it
 * is owed to the payers in proportion to what each lacks; below zero it is the member's credit,
 * owed back by the payers in proportion to what each got beyond their part. Only the net is
 * open: when one payer lacks and another got too much, the member owes (or is owed) the
 * difference. Zero parts are left out.
 */
export function openToPayers(
  debtor: string,
  parts: readonly { payer: string; cents: number }[],
  paid: number,
  paidTo: Readonly<Record<string, number>>,
): { payer: string; cents: number }[] {
  const transferred = Object.values(paidTo).reduce((a, b) => a + b, 0);
  const own = parts.find((p) => p.payer === debtor)?.cents ?? 0;
  const throughPayee = Math.max(0, paid - transferred);
  const others = parts.filter((p) => p.payer !== debtor);
  const spread = allocate(
    Math.max(0, throughPayee - own),
    others.map((p) => p.cents),
  );
  const lacking = others.map((p, i) => p.cents - (paidTo[p.payer] ?? 0) - (spread[i] ?? 0));
  const net = lacking.reduce((a, b) => a + b, 0);
  if (net === 0) return [];
  const sign = net > 0 ? 1 : -1;
  const cents = allocate(
    Math.abs(net),
    lacking.map((l) => Math.max(0, sign * l)),
  );
  return others
    .map((p, i) => ({ payer: p.payer, cents: sign * cents[i]! }))
    .filter((p) => p.cents !== 0);
}

/**
 * A transfer a part asks for: from whom, to whom, how much (positive). A credit (a negative part)
 * is owed by the payer to the member.
 */
export const partFlow = (p: { debtor: string; payer: string; cents: number }) =>
  p.cents >= 0
    ? { from: p.debtor, to: p.payer, cents: p.cents }
    : { from: p.payer, to: p.debtor, cents: -p.cents };

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
