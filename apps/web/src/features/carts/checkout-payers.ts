/**
 * Who pays the shop, chosen at checkout: the form's rows as typed, read into what is sent. The
 * server checks the same (amounts adding up to the total to the cent, each payer the payee or a
 * member with a share); here it only blocks a submit that could not pass.
 */
import { toCents } from "@cartner/contract";

/** Someone who may pay the shop: the payee, or a member with a share. */
export interface PayerCandidate {
  userId: string;
  name: string;
}

/** One row of the form: who, and the amount as typed. */
export interface PayerRowInput {
  userId: string;
  amount: string;
}

/** An amount as typed: digits with at most two decimals ("12", "12.4", "12.40"). */
const AMOUNT = /^\d+(\.\d{1,2})?$/;

/** The payee first, then each other member whose share is above zero, in the split's order. */
export function payerCandidates(
  payee: PayerCandidate,
  shares: readonly { userId: string; name: string; total: number }[],
): PayerCandidate[] {
  return [
    payee,
    ...shares
      .filter((s) => s.userId !== payee.userId && s.total > 0)
      .map((s) => ({ userId: s.userId, name: s.name })),
  ];
}

const text = (cents: number) => (cents / 100).toFixed(2);

/**
 * The split the form opens with (two cards): the payee and the next member, the total in halves,
 * the odd cent to the payee; so it adds up from the start.
 */
export function firstSplit(candidates: PayerCandidate[], totalCents: number): PayerRowInput[] {
  const [payee, other] = candidates;
  if (!payee) return [];
  if (!other) return [{ userId: payee.userId, amount: text(totalCents) }];
  const half = Math.floor(totalCents / 2);
  return [
    { userId: payee.userId, amount: text(totalCents - half) },
    { userId: other.userId, amount: text(half) },
  ];
}

/** A row's amount problem, shown under it; empty rows only keep the submit blocked. */
export function amountError(amount: string): string | undefined {
  const typed = amount.trim();
  if (typed === "") return undefined;
  if (!AMOUNT.test(typed)) return "An amount like 12.40";
  if (toCents(Number(typed)) === 0) return "More than 0";
  return undefined;
}

/**
 * What the rows send, the cents still to assign (negative: over the total), and whether they may
 * be sent: every row has a valid amount and together they make the total to the cent.
 */
export function readPayers(
  rows: PayerRowInput[],
  totalCents: number,
): { payers: { userId: string; amount: number }[]; leftCents: number; ready: boolean } {
  const valid = rows.filter((r) => r.amount.trim() !== "" && amountError(r.amount) === undefined);
  const payers = valid.map((r) => ({ userId: r.userId, amount: Number(r.amount.trim()) }));
  const leftCents = totalCents - payers.reduce((sum, p) => sum + toCents(p.amount), 0);
  const ready = rows.length > 0 && valid.length === rows.length && leftCents === 0;
  return { payers, leftCents, ready };
}

/** A row for the next member not yet listed, with what is still to assign (if any). */
export function nextRow(
  rows: PayerRowInput[],
  candidates: PayerCandidate[],
  totalCents: number,
): PayerRowInput | null {
  const next = candidates.find((c) => !rows.some((r) => r.userId === c.userId));
  if (!next) return null;
  const { leftCents } = readPayers(rows, totalCents);
  return { userId: next.userId, amount: leftCents > 0 ? text(leftCents) : "" };
}
