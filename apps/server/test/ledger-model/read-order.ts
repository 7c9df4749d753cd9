/**
 * The order's own readers against the model: its JSON (figures, shares, statuses, payers, parts)
 * and its ledger entries (GET /orders/:id/entries). Each finding is a line of text; nothing throws
 * here, so one step reports everything that disagrees.
 */
import type { Order } from "@cartner/contract";
import { exactParts, payerProportions, type ExactOrder } from "./exact-split.ts";
import { Q } from "./fraction.ts";
import { lineTotal } from "./line-changes.ts";
import {
  exactOf,
  isPayer,
  key,
  memberIds,
  nameOf,
  net,
  openOf,
  paidOf,
  pairsOf,
  payerIds,
  pendingOf,
  statusOf,
  type ModelOrder,
  type World,
} from "./model.ts";

export type Report = (message: string) => void;
export const cents = (amount: number) => Math.round(amount * 100);
const COMPONENTS = ["subtotal", "fees", "tax", "total"] as const;

/** A member's exact own part when they are a payer: their share in their own proportion. */
function exactOwn(o: ModelOrder, ex: ExactOrder, m: string): Q {
  return exactParts(ex, o.payers).get(m)?.get(m) ?? Q.ZERO;
}

export function checkOrder(w: World, o: ModelOrder, order: Order, bad: Report): void {
  const who = (id: string) => nameOf(w, id);
  const ex = exactOf(o);
  for (const c of COMPONENTS) {
    if (cents(order[c]) !== ex[c]) bad(`order ${c} ${cents(order[c])}, the model says ${ex[c]}`);
  }
  // The lines as placed, and as delivered.
  o.frozen.forEach((f, i) => {
    const line = order.lines[i];
    const state = o.lines[i]!;
    if (!line) return bad(`line ${i} is missing`);
    const sharers = line.sharedWith.map((s) => s._id).sort();
    if (line.addedBy._id !== f.adder || sharers.join() !== [...f.sharers].sort().join()) {
      bad(`line ${i} (${f.name}): adder or sharers differ from the cart's`);
    }
    const now = line.adjusted ? cents(line.adjusted.lineTotal) : cents(line.lineTotal);
    if (now !== lineTotal(state))
      bad(`line ${i} (${f.name}) totals ${now}, the model ${lineTotal(state)}`);
    // A free line: no product, its note as added, at an estimate until priced.
    if (line.free !== f.free || (line.productId === null) !== f.free)
      bad(`line ${i} (${f.name}) is ${line.free ? "" : "not "}free, the model says otherwise`);
    if (line.estimated !== state.estimated)
      bad(
        `line ${i} (${f.name}) is ${line.estimated ? "" : "not "}at an estimate, the model says otherwise`,
      );
    if (line.note !== f.note) bad(`line ${i} (${f.name}) has the note ${line.note}, not ${f.note}`);
  });
  if (order.lines.length !== o.frozen.length) bad(`the order has ${order.lines.length} lines`);

  // Shares: only members who carried one at checkout, each within a cent of exact; a share of
  // 0 may be left out.
  const ids = order.split.map((s) => s.userId);
  for (const id of ids) if (!memberIds(o).includes(id)) bad(`${who(id)}, no member, has a share`);
  for (const [id, share] of ex.shares) {
    if (share.total.sign() !== 0 && !ids.includes(id)) bad(`${who(id)} has no share`);
  }
  for (const c of COMPONENTS) {
    const sum = order.split.reduce((a, s) => a + cents(s[c]), 0);
    if (sum !== cents(order[c])) bad(`the shares' ${c} add up to ${sum}, not ${cents(order[c])}`);
  }
  for (const s of order.split) {
    const exact = ex.shares.get(s.userId);
    if (!exact) continue;
    for (const c of COMPONENTS) {
      if (!exact[c].withinOneCent(cents(s[c]))) {
        bad(`${who(s.userId)}'s ${c} ${cents(s[c])} is not within a cent of exact ${exact[c]}`);
      }
    }
    if (s.total < 0) bad(`${who(s.userId)}'s share is negative`);
    const status = statusOf(o, s.userId);
    if (s.status !== status)
      bad(`${who(s.userId)}'s status is ${s.status}, the model says ${status}`);
    if (!isPayer(o, s.userId)) {
      if (cents(s.paid) !== paidOf(o, s.userId)) {
        bad(`${who(s.userId)} paid ${cents(s.paid)}, the model says ${paidOf(o, s.userId)}`);
      }
      const { credit } = openOf(o, s.userId);
      if (cents(s.credit) !== credit) {
        bad(`${who(s.userId)}'s credit is ${cents(s.credit)}, the model says ${credit}`);
      }
    }
  }
  checkPayersAndParts(w, o, order, ex, bad);
}

function checkPayersAndParts(w: World, o: ModelOrder, order: Order, ex: ExactOrder, bad: Report) {
  const who = (id: string) => nameOf(w, id);
  const named = order.payers.map((p) => p.user._id);
  if (named.join() !== payerIds(o).join()) {
    bad(`payers ${named.map(who).join(", ")}, the model ${payerIds(o).map(who).join(", ")}`);
  }
  const proportions = payerProportions(o.payers);
  const amountOf = new Map(order.payers.map((p) => [p.user._id, cents(p.amount)]));
  if ([...amountOf.values()].reduce((a, b) => a + b, 0) !== ex.total) {
    bad(`the payers' amounts do not add up to the total ${ex.total}`);
  }
  for (const p of o.payers) {
    const exact = Q.of(ex.total).mul(proportions.get(p.userId)!);
    if (!exact.withinOneCent(amountOf.get(p.userId) ?? 0)) {
      bad(`${who(p.userId)} paid ${amountOf.get(p.userId)}, not within a cent of exact ${exact}`);
    }
  }

  const parts = new Map<string, (typeof order.parts)[number]>();
  for (const p of order.parts) {
    if (p.debtor === p.payer) bad(`${who(p.debtor)} owes themself a part`);
    parts.set(key(p.debtor, p.payer), p);
  }
  const part = (m: string, p: string) => cents(parts.get(key(m, p))?.amount ?? 0);
  const exact = exactParts(ex, o.payers);
  const shareOf = (m: string) => cents(order.split.find((s) => s.userId === m)?.total ?? 0);
  // Two payers who both carry a share owe each other the net of their two parts (reading 1): the
  // order shows one part between them, within two cents of the exact net (each of the two parts
  // it nets is within a cent); their own parts are checked by the books' balance below.
  const mutual = (m: string, p: string) => isPayer(o, m) && exact.get(p)?.has(m) === true;
  for (const m of memberIds(o)) {
    let owed = 0;
    for (const p of payerIds(o)) {
      if (p === m) continue;
      owed += part(m, p);
      if (part(m, p) !== (o.parts.get(key(m, p)) ?? 0)) {
        bad(`${who(m)}'s part to ${who(p)} changed to ${part(m, p)} without a change`);
      }
      const x = exact.get(m)!.get(p)!;
      if (mutual(m, p)) {
        if (m > p) continue;
        const netExact = x.sub(exact.get(p)!.get(m)!);
        const shown = part(m, p) - part(p, m);
        if (!netExact.sub(Q.of(shown)).abs().lt(Q.of(2))) {
          bad(`${who(m)} and ${who(p)} net ${shown}, not within two cents of exact ${netExact}`);
        }
      } else if (!x.withinOneCent(part(m, p))) {
        bad(`${who(m)}'s part to ${who(p)} ${part(m, p)} is not within a cent of exact ${x}`);
      }
    }
    if (!isPayer(o, m) && owed !== shareOf(m)) {
      bad(`${who(m)}'s parts add up to ${owed}, not their share ${shareOf(m)}`);
    }
    const alone = payerIds(o).every((p) => p === m || !mutual(m, p));
    if (isPayer(o, m) && alone && !exactOwn(o, ex, m).withinOneCent(shareOf(m) - owed)) {
      bad(
        `${who(m)}'s own part ${shareOf(m) - owed} is not within a cent of exact ${exactOwn(o, ex, m)}`,
      );
    }
  }
  // Books balance: what a payer is owed less what they owe the others is what they paid the
  // shop less their own share.
  for (const p of payerIds(o)) {
    const owedTo = memberIds(o).reduce((a, m) => a + (m === p ? 0 : part(m, p)), 0);
    const owes = payerIds(o).reduce((a, q) => a + (q === p ? 0 : part(p, q)), 0);
    if (owedTo - owes !== (amountOf.get(p) ?? 0) - shareOf(p)) {
      bad(
        `${who(p)} is owed ${owedTo} and owes ${owes}, but paid ${amountOf.get(p)} for a share of ${shareOf(p)}`,
      );
    }
  }
  // What is open of each pair, whichever way the two parts between two payers are shown.
  for (const [a, b] of pairsOf(o)) {
    const signed = (m: string, p: string) => {
      const x = parts.get(key(m, p));
      return x ? cents(x.open) - cents(x.credit) : 0;
    };
    const shown = signed(a, b) - signed(b, a);
    if (shown !== net(o, a, b)) {
      bad(`the order shows ${who(a)} owing ${who(b)} ${shown} open, the model ${net(o, a, b)}`);
    }
  }
  for (const p of order.parts) {
    if (p.open < 0 || p.credit < 0 || (p.open > 0 && p.credit > 0)) {
      bad(`${who(p.debtor)}'s part to ${who(p.payer)} shows open ${p.open} and credit ${p.credit}`);
    }
  }
}

export interface Entry {
  _id: string;
  at: string;
  kind: string;
  from: { _id: string; name: string };
  to: { _id: string; name: string };
  amount: number;
  by: { _id: string; name: string };
  note: string | null;
}

export const ENTRY_KINDS = [
  "share",
  "paid",
  "confirmed",
  "cash",
  "written_off",
  "transfer",
  "adjustment",
  "credit_back",
  "reversal",
];

/**
 * The order's entries against the model. `paid` entries are pending claims and count in no sum;
 * a `confirmed` one posts a claim (and closes it); a `reversal` of the same amount as an open
 * claim of the same pair voids it (the API shows no `ref`, so that is how a void is told from a
 * posted correction), any other reversal is posted. Every posted entry counts.
 */
export function checkEntries(w: World, o: ModelOrder, entries: Entry[], bad: Report): void {
  const who = (id: string) => nameOf(w, id);
  const posted = new Map<string, number>();
  const claims = new Map<string, number[]>();
  const add = (k: string, by: number) => posted.set(k, (posted.get(k) ?? 0) + by);
  const close = (k: string, amount: number) => {
    const open = claims.get(k) ?? [];
    const i = open.indexOf(amount);
    if (i < 0) return false;
    open.splice(i, 1);
    return true;
  };
  let last = "";
  for (const e of entries) {
    const amount = cents(e.amount);
    if (!(amount > 0)) bad(`entry ${e._id} (${e.kind}) has amount ${e.amount}`);
    if (e.from._id === e.to._id)
      bad(`entry ${e._id} (${e.kind}) is from ${who(e.from._id)} to themself`);
    if (!ENTRY_KINDS.includes(e.kind)) bad(`entry ${e._id} has kind ${e.kind}`);
    if (e.at < last) bad(`entry ${e._id} is listed after a later one`);
    last = e.at;
    // A claim is written from the payer to the member who says they paid.
    const claim = key(e.to._id, e.from._id);
    if (e.kind === "paid") claims.set(claim, [...(claims.get(claim) ?? []), amount]);
    else if (e.kind === "reversal" && close(key(e.from._id, e.to._id), amount)) continue;
    else {
      if (e.kind === "confirmed" && !close(claim, amount)) {
        // One confirmation may post several claims of the pair at once.
        const open = claims.get(claim) ?? [];
        let left = amount;
        while (left > 0 && open.length > 0) left -= open.shift()!;
        if (left !== 0) bad(`entry ${e._id} confirms ${amount}, not what ${who(e.to._id)} claimed`);
      }
      add(key(e.from._id, e.to._id), amount);
    }
  }
  const pairs = new Map(pairsOf(o).map(([a, b]) => [key(a, b), [a, b] as const]));
  for (const k of posted.keys()) {
    const [a, b] = k.split("|") as [string, string];
    if (!pairs.has(key(a, b)) && !pairs.has(key(b, a))) {
      bad(`entries between ${who(a)} and ${who(b)}, who owe each other nothing on this order`);
    }
  }
  for (const [a, b] of pairs.values()) {
    const sum = (posted.get(key(a, b)) ?? 0) - (posted.get(key(b, a)) ?? 0);
    if (sum !== net(o, a, b)) {
      bad(`entries say ${who(a)} owes ${who(b)} ${sum}, the model ${net(o, a, b)}`);
    }
  }
  for (const m of memberIds(o)) {
    for (const p of payerIds(o)) {
      if (m === p) continue;
      const claimed = (claims.get(key(m, p)) ?? []).reduce((a, b) => a + b, 0);
      if (claimed !== pendingOf(o, m, p)) {
        bad(
          `entries hold ${claimed} pending from ${who(m)} to ${who(p)}, the model ${pendingOf(o, m, p)}`,
        );
      }
    }
  }
}
