/**
 * After every step: every reader of every order and every person against the model. Findings are
 * collected and thrown together, so a failing step says all that disagrees. MODEL_SKIP (a comma
 * list of reader names: order, orders, entries, balances, plan, payinfo, csv, receipt) leaves
 * readers out while one of them is being built; by default none is left out. MODEL_TRACE=1
 * prints each step as it runs.
 */
import { isDeepStrictEqual } from "node:util";
import type { Balance, Order, PlannedTransfer } from "@cartner/contract";
import { client, type TestApp } from "../helpers.ts";
import { pdfText } from "../pdf-text.ts";
import { alive, nameOf, peopleOf, type ModelOrder, type World } from "./model.ts";
import type { Report } from "./read-order.ts";
import { checkBalances, checkPayInfo, checkPlan } from "./read-balances.ts";
import { checkCsv, checkReceipt } from "./read-files.ts";
import { cents, checkEntries, checkOrder, type Entry } from "./read-order.ts";
import {
  checkPayeeView,
  checkReaderCsv,
  checkReaderOrder,
  checkReaderReceipt,
  hiddenFrom,
  orderAsSeenBy,
} from "./read-private.ts";

export const READERS = [
  "order",
  "orders",
  "entries",
  "balances",
  "plan",
  "payinfo",
  "csv",
  "receipt",
] as const;
type Reader = (typeof READERS)[number];
const skipped = new Set((process.env.MODEL_SKIP ?? "").split(",").filter(Boolean));
const on = (r: Reader) => !skipped.has(r);

/**
 * MODEL_SURVEY=1: findings are tallied (digits masked) instead of thrown, and the runs go on, so
 * one run lists every kind of disagreement; the test prints the tally and fails if it is not
 * empty.
 */
export const survey = process.env.MODEL_SURVEY
  ? {
      tally: new Map<string, { count: number; example: string }>(),
      note(finding: string, step = "") {
        const kind = finding.replace(/\d+(\.\d+)?/g, "#").replace(/(Ann|Ben|Cat|Dan|Eve)/g, "X");
        const seen = this.tally.get(kind);
        const example = seen?.example ?? `${finding}${step ? `   (after ${step})` : ""}`;
        this.tally.set(kind, { count: (seen?.count ?? 0) + 1, example });
      },
    }
  : null;

/** What a step expects of the entries it wrote: kinds that must be among the new ones. */
export interface Expect {
  orderId: string;
  kinds: string[][];
}

/** Entries seen so far per order, so a step's new ones can be told apart. */
export type Seen = Map<string, number>;

export async function readEntries(t: TestApp, token: string, orderId: string) {
  const as = client(t, token);
  const entries: Entry[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 50; page++) {
    const res = await as(
      "GET",
      `/api/orders/${orderId}/entries?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    if (res.statusCode !== 200) return { status: res.statusCode, entries };
    const body = res.json() as { entries: Entry[]; nextCursor: string | null };
    entries.push(...body.entries);
    cursor = body.nextCursor;
    if (!cursor) break;
  }
  return { status: 200, entries };
}

export async function verify(
  t: TestApp,
  w: World,
  step: string,
  seen: Seen,
  expected: Expect[] = [],
): Promise<void> {
  if (process.env.MODEL_TRACE) console.info(`  step: ${step}`);
  const found: string[] = [];
  const orderOf = new Map<string, Order>();
  const seenBalances = new Map<string, Map<string, number>>();
  for (const o of w.orders) {
    const bad = (m: string) => found.push(`[order ${o.seq + 1}] ${m}`);
    const reader = w.people.find((p) => p.id === o.payee)!;
    const as = client(t, reader.token);
    const res = await as("GET", `/api/orders/${o.id}`);
    if (res.statusCode !== 200) {
      bad(`GET /api/orders/:id answered ${res.statusCode}`);
      continue;
    }
    const order = res.json().order as Order;
    orderOf.set(o.id, order);
    if (on("order")) {
      checkOrder(w, o, order, bad);
      checkPayeeView(w, o, order, bad);
    }
    if (on("entries")) await entriesOf(t, w, o, reader.token, seen, expected, bad);
    if (on("payinfo")) await payInfoOf(t, w, o, bad);
    if (on("csv")) {
      const csv = await as("GET", `/api/orders/${o.id}/export.csv`);
      if (csv.statusCode !== 200) bad(`the CSV answered ${csv.statusCode}`);
      else {
        checkCsv(o, csv.body, (m) => bad(`csv: ${m}`));
        checkReaderCsv(o, o.payee, csv.body, (m) => bad(`csv: ${m}`));
      }
    }
    if (on("receipt")) {
      const pdf = await as("GET", `/api/orders/${o.id}/receipt.pdf`);
      if (pdf.statusCode !== 200) bad(`the receipt answered ${pdf.statusCode}`);
      else {
        const text = await pdfText(new Uint8Array(pdf.rawPayload));
        checkReceipt(w, o, order, text, bad);
        checkReaderReceipt(o, o.payee, text, bad);
      }
    }
    await privateReaders(t, w, o, order, bad);
  }
  for (const x of alive(w)) {
    const as = client(t, x.token);
    const bad = (m: string) => found.push(m);
    if (on("orders")) {
      const list = (await as("GET", "/api/orders")).json().orders as Order[];
      for (const o of w.orders) {
        const mine = list.find((l) => l._id === o.id);
        const concerned = peopleOf(o).includes(x.id);
        if (concerned !== Boolean(mine))
          bad(`${x.name}'s My Orders ${mine ? "lists" : "lacks"} order ${o.seq + 1}`);
        else if (mine) {
          const page = orderAsSeenBy(o, orderOf.get(o.id)!, x.id);
          if (!isDeepStrictEqual(withoutMail(mine), withoutMail(page)))
            bad(`${x.name}'s My Orders shows order ${o.seq + 1} otherwise than its page as theirs`);
          checkReaderOrder(o, mine, x.id, (m) => bad(`${x.name}'s My Orders: ${m}`));
        }
      }
    }
    if (on("balances")) {
      const res = await as("GET", "/api/balances");
      const balances = res.json().balances as Balance[];
      checkBalances(w, x, balances, bad);
      seenBalances.set(x.id, new Map(balances.map((b) => [b.user._id, cents(b.amount)])));
    }
    if (on("plan")) {
      const res = await as("GET", "/api/balances/settle-plan");
      checkPlan(w, x, res.json().transfers as PlannedTransfer[], bad);
    }
  }
  // Nets sum to zero: what x says y owes them, y says they owe x.
  for (const [x, mine] of seenBalances) {
    for (const [y, amount] of mine) {
      const theirs = seenBalances.get(y)?.get(x);
      if (theirs !== undefined && theirs !== -amount) {
        found.push(`${nameOf(w, x)} is owed ${amount} by ${nameOf(w, y)}, who says ${-theirs}`);
      }
    }
  }
  report(found, step);
}

/** An order without its checkout mails' state, which the mail queue moves at any time. */
const withoutMail = (o: Order) => ({ ...o, split: o.split.map(({ mail: _mail, ...s }) => s) });

const ignored = process.env.MODEL_IGNORE ? new RegExp(process.env.MODEL_IGNORE) : null;

/**
 * A step's findings: thrown together (or tallied when surveying). MODEL_IGNORE, a regular
 * expression, drops the findings it matches (say "within a cent" while the rounding is built).
 */
export function report(findings: string[], step: string): void {
  const kept = [...new Set(findings)].filter((f) => !ignored?.test(f));
  if (kept.length === 0) return;
  if (survey) for (const f of kept) survey.note(f, step);
  else throw new Error(`after ${step}:\n  - ${kept.join("\n  - ")}`);
}

async function entriesOf(
  t: TestApp,
  w: World,
  o: ModelOrder,
  token: string,
  seen: Seen,
  expected: Expect[],
  bad: (m: string) => void,
) {
  const { status, entries } = await readEntries(t, token, o.id);
  if (status !== 200) return bad(`GET /api/orders/:id/entries answered ${status}`);
  checkEntries(w, o, entries, (m) => bad(`entries: ${m}`));
  const fresh = entries.slice(seen.get(o.id) ?? 0).map((e) => e.kind);
  for (const e of expected.filter((x) => x.orderId === o.id)) {
    for (const kinds of e.kinds) {
      if (!fresh.some((k) => kinds.includes(k))) {
        bad(`entries: no new ${kinds.join(" or ")} entry (new: ${fresh.join(", ") || "none"})`);
      }
    }
  }
  seen.set(o.id, entries.length);
}

/**
 * Each member some lines are hidden from reads the order, its CSV and its receipt as their own:
 * the payee's page without those lines, their figures adding up, a private row, a count.
 */
async function privateReaders(t: TestApp, w: World, o: ModelOrder, payees: Order, bad: Report) {
  for (const x of alive(w)) {
    if (x.id === o.payee || !peopleOf(o).includes(x.id) || hiddenFrom(o, x.id).length === 0)
      continue;
    const as = client(t, x.token);
    const say = (m: string) => bad(`${x.name}'s ${m}`);
    if (on("order")) {
      const res = await as("GET", `/api/orders/${o.id}`);
      const mine = res.json().order as Order;
      if (res.statusCode !== 200) say(`order answered ${res.statusCode}`);
      else {
        if (!isDeepStrictEqual(withoutMail(mine), withoutMail(orderAsSeenBy(o, payees, x.id))))
          say(`order is not the payee's without the lines hidden from them`);
        checkReaderOrder(o, mine, x.id, (m) => say(`order: ${m}`));
      }
    }
    if (on("csv")) {
      const csv = await as("GET", `/api/orders/${o.id}/export.csv`);
      if (csv.statusCode !== 200) say(`CSV answered ${csv.statusCode}`);
      else checkReaderCsv(o, x.id, csv.body, (m) => say(`csv: ${m}`));
    }
    if (on("receipt")) {
      const pdf = await as("GET", `/api/orders/${o.id}/receipt.pdf`);
      if (pdf.statusCode !== 200) say(`receipt answered ${pdf.statusCode}`);
      else {
        const text = await pdfText(new Uint8Array(pdf.rawPayload));
        checkReceipt(w, o, payees, text, (m) => say(m));
        checkReaderReceipt(o, x.id, text, (m) => say(m));
      }
    }
  }
}

async function payInfoOf(t: TestApp, w: World, o: ModelOrder, bad: (m: string) => void) {
  for (const m of alive(w)) {
    if (m.id === o.payee || !o.holders.includes(m.id)) continue;
    const res = await client(t, m.token)("GET", `/api/orders/${o.id}/pay-info`);
    checkPayInfo(w, o, m, res, bad);
  }
}
