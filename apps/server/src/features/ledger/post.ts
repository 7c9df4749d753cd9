/**
 * Writing the book (docs/decisions/033-one-ledger.md): every money event is one call here,
 * inside the session write that records it, and appends entries; nothing is updated. Each
 * function reads what it needs under the write's lock (the order's session is locked by
 * writeSession), so two events never post from the same old figures.
 */
import { randomUUID } from "node:crypto";
import type { LedgerKind } from "@cartner/contract";
import type { Tx } from "../../db/client.ts";
import { ledgerEntries } from "../../db/schema.ts";
import { owedBy, owingOf, type Pair } from "./book.ts";

/** Who did an event, when, and with which request: shared by its entries. */
export interface LedgerEvent {
  at: Date;
  /** null: the app itself (an account's deletion, the upgrade). */
  by: { id: string | null; name: string };
  /** The request's Idempotency-Key, when it came with one. */
  key?: string | null | undefined;
}

/** One entry to write: `from` owes `to` `cents` more (cents > 0). */
export interface Posting {
  orderId: string;
  kind: LedgerKind;
  fromId: string;
  toId: string;
  cents: number;
  pending?: boolean;
  refId?: string;
  note?: string | null;
}

/**
 * Appends the postings as one transaction of the book (one `txn`), skipping zero amounts and
 * debts of a person to themself; a negative amount is written the other way round.
 */
export async function post(
  tx: Tx,
  event: LedgerEvent,
  postings: Posting[],
  activitySeq: number | null = null,
): Promise<{ id: string }[]> {
  const txn = randomUUID();
  const rows = postings
    .filter((p) => p.cents !== 0 && p.fromId !== p.toId)
    .map((p) => {
      const forward = p.cents > 0;
      return {
        orderId: p.orderId,
        txn,
        at: event.at,
        kind: p.kind,
        fromId: forward ? p.fromId : p.toId,
        toId: forward ? p.toId : p.fromId,
        amountCents: Math.abs(p.cents),
        pending: p.pending ?? false,
        refId: p.refId ?? null,
        byId: event.by.id,
        byName: event.by.name,
        note: p.note ?? null,
        idempotencyKey: event.key ?? null,
        activitySeq,
      };
    });
  if (rows.length === 0) return [];
  return tx.insert(ledgerEntries).values(rows).returning({ id: ledgerEntries.id });
}

/** A part: what `debtor` owes `payer` on an order by its split (cents, ≥ 0). */
export interface Part {
  debtor: string;
  payer: string;
  cents: number;
}

/**
 * Moves every pair's part to `target` (the split's parts now): for each two people, the
 * difference between their net part in `target` and in the book, as one entry of `kind`
 * ("share" at checkout and when the payers change, "adjustment" after a change to the order).
 */
export function partMoves(
  orderId: string,
  pairs: Pair[],
  target: Part[],
  kind: "share" | "adjustment",
  note: string | null = null,
): Posting[] {
  const key = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);
  // Each pair's net part, signed from the lower id's side: what `lo` owes `hi`.
  const want = new Map<string, number>();
  for (const p of target) {
    if (p.debtor === p.payer || p.cents === 0) continue;
    const k = key(p.debtor, p.payer);
    want.set(k, (want.get(k) ?? 0) + (p.debtor < p.payer ? p.cents : -p.cents));
  }
  const have = new Map<string, number>();
  for (const pair of pairs) {
    const k = key(pair.debtor, pair.creditor);
    have.set(k, pair.debtor < pair.creditor ? pair.part : -pair.part);
  }
  const postings: Posting[] = [];
  for (const k of new Set([...want.keys(), ...have.keys()])) {
    const [lo, hi] = k.split("|") as [string, string];
    const delta = (want.get(k) ?? 0) - (have.get(k) ?? 0);
    if (delta !== 0) postings.push({ orderId, kind, fromId: lo, toId: hi, cents: delta, note });
  }
  return postings;
}

/**
 * What a write-off forgave is never money owed back: where a change lowers a part that was
 * written off, so that the one forgiven would be owed a credit, as much of the write-off is taken
 * back ("written_off" the other way round) as keeps the pair at zero. Either of the two may have
 * forgiven the other (two payers who both carry a share: the one who owes by the split may have
 * written off a credit the other owed back). A change that raises it again is owed like any other.
 */
export function forgivenessKept(orderId: string, pairs: Pair[], moves: Posting[]): Posting[] {
  return pairs.flatMap((pair) => {
    if (pair.writtenOff === 0) return [];
    const moved = moves
      .filter(
        (m) =>
          (m.fromId === pair.debtor && m.toId === pair.creditor) ||
          (m.fromId === pair.creditor && m.toId === pair.debtor),
      )
      .reduce((a, m) => a + (m.fromId === pair.debtor ? m.cents : -m.cents), 0);
    // Seen from the one who forgave: what the one forgiven owes them after the change.
    const byCreditor = pair.writtenOff > 0;
    const after = byCreditor ? pair.net + moved : -(pair.net + moved);
    if (after >= 0) return [];
    const [forgiven, forgiver] = byCreditor
      ? [pair.debtor, pair.creditor]
      : [pair.creditor, pair.debtor];
    return [
      {
        orderId,
        kind: "written_off" as const,
        fromId: forgiven,
        toId: forgiver,
        cents: Math.min(Math.abs(pair.writtenOff), -after),
        note: "Less written off after a change",
      },
    ];
  });
}

/**
 * "I've paid": a pending claim to each person the member still owes on the order, of what is open
 * to them beyond the claims already waiting (none: the share was already paid or claimed).
 */
export function claimsOf(
  orderId: string,
  pairs: Pair[],
  memberId: string,
  payerIds: readonly string[],
): Posting[] {
  return owedBy(pairs, memberId, payerIds)
    .filter((o) => o.owes - o.claimed > 0)
    .map((o) => ({
      orderId,
      kind: "paid" as const,
      fromId: o.other,
      toId: memberId,
      cents: o.owes - o.claimed,
      pending: true,
    }));
}

export type Settlement = "transfer" | "cash" | "written_off";

/**
 * The other person of the pair settles what `memberId` owes them on the order (and only that):
 * "transfer" posts the member's waiting claims as confirmed; "cash" and "written_off" void the
 * claims and post what is open. Nothing when nothing is open (or, to confirm, no claim waits).
 */
export function settlementOf(
  orderId: string,
  pair: Pair,
  memberId: string,
  how: Settlement,
): Posting[] {
  const owing = owingOf(pair, memberId);
  if (!owing) return [];
  if (how === "transfer") {
    return owing.claims.map((c) => ({
      orderId,
      kind: "confirmed" as const,
      fromId: owing.other,
      toId: memberId,
      cents: c.cents,
      refId: c.id,
    }));
  }
  if (owing.owes <= 0) return [];
  return [
    ...voids(orderId, pair, memberId),
    { orderId, kind: how, fromId: owing.other, toId: memberId, cents: owing.owes },
  ];
}

/** Reversals of `memberId`'s waiting claims on the pair: they no longer stand (settled otherwise). */
export function voids(orderId: string, pair: Pair, memberId: string): Posting[] {
  const owing = owingOf(pair, memberId);
  return (owing?.claims ?? []).map((c) => ({
    orderId,
    kind: "reversal" as const,
    fromId: memberId,
    toId: owing!.other,
    cents: c.cents,
    pending: true,
    refId: c.id,
  }));
}
