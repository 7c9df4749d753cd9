/**
 * Reading the book (docs/decisions/033-one-ledger.md): every money figure is a sum over the
 * ledger's entries, taken here. Between two people on one order the entries net to one pair: who
 * owes whom by the split (the part), what is still owed once payments are counted (posted
 * entries only), and the claims ("I've paid") waiting for the creditor. Shares' statuses, credits
 * and what was paid are sums over a member's pairs (shareBook).
 */
import type { LedgerKind, ShareStatus } from "@cartner/contract";
import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import { executeRows, type Db, type Tx } from "../../db/client.ts";

/** Kinds that move a part (the split's figures): shares and adjustments. */
export const PART_KINDS = ["share", "adjustment"] as const;
/** Kinds that settle what is owed: payments, settlements and transfers. */
export const SETTLING_KINDS = [
  "confirmed",
  "cash",
  "written_off",
  "transfer",
  "credit_back",
] as const;

/** "I've paid", waiting for the other to confirm it: a pending "paid" entry. */
export interface Claim {
  id: string;
  cents: number;
  at: Date;
}

/** Two people on one order, oriented so that `debtor` owes `creditor` by the split. */
export interface Pair {
  orderId: string;
  debtor: string;
  creditor: string;
  /** What the debtor owes the creditor by the split (shares and adjustments, net), ≥ 0. */
  part: number;
  /** What the debtor still owes the creditor (posted entries, net); below 0 a credit owed back. */
  net: number;
  /** The debtor's claims of payment waiting for the creditor's confirmation. */
  claims: Claim[];
  claimed: number;
  /** The creditor's own waiting claims, when it is they who owe (a credit not yet paid back). */
  creditorClaims: Claim[];
  /** Written off by the creditor, net (part of what settled the pair, not a payment). */
  writtenOff: number;
  /** The newest entry that settled something between the two, with its kind. */
  lastSettled: { kind: LedgerKind; at: Date } | null;
  /** When the debtor last said they paid (a claim, waiting or not). */
  claimedAt: Date | null;
}

interface DirectedRow {
  orderId: string;
  fromId: string;
  toId: string;
  part: string | number;
  shares: string | number;
  posted: string | number;
  writtenOff: string | number;
  settledAt: string | Date | null;
  settledKind: LedgerKind | null;
  claimedAt: string | Date | null;
  claims: { id: string; cents: number; at: string }[];
}

const inList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

/**
 * Each two people's entries on an order summed in one direction (from -> to): the rows pairs are
 * made of. `where` picks the entries (`e` is ledger_entries).
 */
function directedSums(where: SQL): SQL {
  return sql`select e.order_id as "orderId", e.from_id as "fromId", e.to_id as "toId",
      coalesce(sum(e.amount_cents) filter (where e.kind in ('share', 'adjustment')), 0) as part,
      coalesce(sum(e.amount_cents) filter (where e.kind = 'share'), 0) as shares,
      coalesce(sum(e.amount_cents) filter (where not e.pending), 0) as posted,
      coalesce(sum(e.amount_cents) filter (where e.kind = 'written_off'), 0) as "writtenOff",
      max(e.at) filter (where e.kind in ('confirmed', 'cash', 'written_off', 'transfer', 'credit_back'))
        as "settledAt",
      max(e.at) filter (where e.kind = 'paid') as "claimedAt",
      (array_agg(e.kind order by e.seq desc)
        filter (where e.kind in ('confirmed', 'cash', 'written_off', 'transfer', 'credit_back')))[1]
        as "settledKind",
      coalesce(json_agg(json_build_object('id', e.id, 'cents', e.amount_cents, 'at', e.at)
        order by e.seq) filter (where e.kind = 'paid'
          and not exists (select 1 from ledger_entries r where r.ref_id = e.id)), '[]') as claims
      from ledger_entries e
      where ${where}
      group by e.order_id, e.from_id, e.to_id`;
}

/**
 * The book of the order whose id `orderId` names, as one JSON value (for a query that reads an
 * order with its book in one go): pass it to pairsOfJson().
 */
export function bookJson(orderId: SQL | AnyColumn): SQL {
  return sql`(select coalesce(json_agg(d), '[]') from (${directedSums(
    sql`e.order_id = ${orderId}`,
  )}) d)`;
}

/** The pairs of a book read with bookJson(). */
export const pairsOfJson = (rows: unknown): Pair[] => pairsFrom(rows as DirectedRow[]);

/** The pairs of these orders (every two people with entries between them). */
export async function pairsOfOrders(db: Db | Tx, orderIds: string[]): Promise<Pair[]> {
  if (orderIds.length === 0) return [];
  const rows = await executeRows<DirectedRow>(
    db,
    directedSums(sql`e.order_id in (${inList(orderIds)})`),
  );
  return pairsFrom(rows);
}

/** One order's pairs (read inside a write, under its lock, or for a reader). */
export const pairsOfOrder = (db: Db | Tx, orderId: string) => pairsOfOrders(db, [orderId]);

/** Both directions of each two people, netted into one pair. */
function pairsFrom(rows: DirectedRow[]): Pair[] {
  const byKey = new Map<string, { lo: string; hi: string; orderId: string; rows: DirectedRow[] }>();
  for (const r of rows) {
    const [lo, hi] = r.fromId < r.toId ? [r.fromId, r.toId] : [r.toId, r.fromId];
    const key = `${r.orderId}|${lo}|${hi}`;
    const entry = byKey.get(key) ?? { lo, hi, orderId: r.orderId, rows: [] };
    entry.rows.push(r);
    byKey.set(key, entry);
  }
  return [...byKey.values()].map(({ lo, hi, orderId, rows: both }) => {
    const from = (a: string) => both.find((r) => r.fromId === a);
    const loHi = from(lo);
    const hiLo = from(hi);
    const netOf = (field: "part" | "shares" | "posted") =>
      Number(loHi?.[field] ?? 0) - Number(hiLo?.[field] ?? 0);
    const part = netOf("part");
    const net = netOf("posted");
    const shares = netOf("shares");
    // Oriented by the split; with no part left (a share adjusted to nothing), by whose share it
    // was at checkout, so a payment beyond it stays the member's credit; else by what is owed.
    const loOwes = part !== 0 ? part > 0 : shares !== 0 ? shares > 0 : net >= 0;
    const [debtor, creditor] = loOwes ? [lo, hi] : [hi, lo];
    const toDebtor = loOwes ? hiLo : loHi;
    const settled = [loHi, hiLo]
      .filter((r): r is DirectedRow => Boolean(r?.settledAt))
      .map((r) => ({ kind: r.settledKind!, at: new Date(r.settledAt!) }))
      .sort((a, b) => b.at.getTime() - a.at.getTime());
    const claimsOf = (r: DirectedRow | undefined): Claim[] =>
      (r?.claims ?? []).map((c) => ({ id: c.id, cents: Number(c.cents), at: new Date(c.at) }));
    const claims = claimsOf(toDebtor);
    return {
      orderId,
      debtor,
      creditor,
      part: Math.abs(part),
      net: loOwes ? net : -net,
      claims,
      claimed: claims.reduce((a, c) => a + c.cents, 0),
      creditorClaims: claimsOf(loOwes ? loHi : hiLo),
      writtenOff:
        Number(toDebtor?.writtenOff ?? 0) - Number((loOwes ? loHi : hiLo)?.writtenOff ?? 0),
      lastSettled: settled[0] ?? null,
      claimedAt: toDebtor?.claimedAt ? new Date(toDebtor.claimedAt) : null,
    };
  });
}

/** A pair seen from one of its two people: what they owe the other, and their waiting claims. */
export interface Owing {
  pair: Pair;
  other: string;
  /** Cents they owe the other (0 or less: nothing). */
  owes: number;
  claims: Claim[];
  claimed: number;
}

/** The pair seen from `m` (null when `m` is not one of its two people). */
export function owingOf(pair: Pair, m: string): Owing | null {
  if (m !== pair.debtor && m !== pair.creditor) return null;
  const asDebtor = m === pair.debtor;
  const claims = asDebtor ? pair.claims : pair.creditorClaims;
  return {
    pair,
    other: asDebtor ? pair.creditor : pair.debtor,
    owes: asDebtor ? pair.net : -pair.net,
    claims,
    claimed: claims.reduce((a, c) => a + c.cents, 0),
  };
}

/**
 * What `m`'s share owes on these pairs: one Owing per payer (someone who paid the shop) they owe
 * something to. A credit a payer owes back to a member who paid nothing is not that payer's share
 * owing: it is the member's credit, paid back by a transfer.
 */
export const owedBy = (pairs: Pair[], m: string, payerIds: readonly string[]): Owing[] =>
  pairs
    .map((p) => owingOf(p, m))
    .filter((o): o is Owing => o !== null && o.owes > 0 && payerIds.includes(o.other));

/** How a share was settled, as the API names it, from the kind of the entry that settled it. */
const SETTLED_AS: Partial<Record<LedgerKind, "transfer" | "cash" | "written_off">> = {
  confirmed: "transfer",
  transfer: "transfer",
  credit_back: "transfer",
  cash: "cash",
  written_off: "written_off",
};

/** A member's share of one order as the book says it stands. */
export interface ShareBook {
  status: ShareStatus;
  /** Still owed to the others (cents, ≥ 0). */
  open: number;
  /** Paid towards the share (payments posted, less credits paid back), cents. */
  paid: number;
  /** Paid beyond the share and not paid back yet, cents. */
  credit: number;
  settledAs: "transfer" | "cash" | "written_off" | null;
  paidAt: Date | null;
  confirmedAt: Date | null;
}

/**
 * A share's figures from its member's pairs on the order: settled ("confirmed") when they owe
 * nobody; "paid" when a claim waits for everyone they still owe, covering it; else "unpaid".
 */
export function shareBook(
  pairs: Pair[],
  memberId: string,
  payerIds: readonly string[],
  placedAt: Date,
): ShareBook {
  const mine = pairs.filter((p) => p.debtor === memberId);
  // Whatever they owe: their parts, or (when two payers owe each other) a credit owed back.
  const owing = owedBy(pairs, memberId, payerIds);
  const open = owing.reduce((a, o) => a + o.owes, 0);
  const status: ShareStatus =
    open === 0 ? "confirmed" : owing.every((o) => o.claimed >= o.owes) ? "paid" : "unpaid";
  const last = mine
    .map((p) => p.lastSettled)
    .filter((s): s is NonNullable<typeof s> => s !== null)
    .sort((a, b) => b.at.getTime() - a.at.getTime())[0];
  const claimAts = mine.flatMap((p) => (p.claimedAt ? [p.claimedAt.getTime()] : []));
  return {
    status,
    open,
    paid: mine.reduce((a, p) => a + p.part - p.net - p.writtenOff, 0),
    credit: mine.reduce((a, p) => a + Math.max(0, -p.net), 0),
    settledAs: status === "confirmed" && last ? (SETTLED_AS[last.kind] ?? null) : null,
    paidAt: claimAts.length > 0 ? new Date(Math.max(...claimAts)) : null,
    confirmedAt: status === "confirmed" ? (last?.at ?? placedAt) : null,
  };
}
