/**
 * The order's files against the model. The CSV (GET /orders/:id/export.csv): its share rows add
 * up to its order_total row, which holds the order's figures; its line rows (as placed) and its
 * adjustment rows (one per change, each the signed amount it changed the lines or the order by)
 * add up to the subtotal plus the order-level amounts. The receipt PDF: it names every payer and
 * states the total, every share and every part a member owes a payer.
 */
import type { Order } from "@cartner/contract";
import { parse } from "csv-parse/sync";
import { exactOf, nameOf, type ModelOrder, type World } from "./model.ts";
import { cents, type Report } from "./read-order.ts";

type Row = Record<string, string>;
const num = (cell: string | undefined) => (cell ? Math.round(Number(cell) * 100) : 0);
const FIGURES = ["subtotal", "fees", "tax", "total"] as const;

export function checkCsv(o: ModelOrder, text: string, bad: Report): void {
  const rows = parse(text, { bom: true, columns: true }) as Row[];
  const ex = exactOf(o);
  const of = (type: string) => rows.filter((r) => r.type === type);
  const totals = of("order_total");
  if (totals.length !== 1) return bad(`the CSV has ${totals.length} order_total rows`);
  const total = totals[0]!;
  const want = { subtotal: ex.subtotal, fees: ex.fees, tax: ex.tax, total: ex.total };
  const shares = rows.filter((r) => r.type === "share" || r.type === "payee_share");
  for (const f of FIGURES) {
    if (num(total[f]) !== want[f])
      bad(`the CSV's order_total ${f} is ${total[f]}, the order ${want[f]}`);
    const sum = shares.reduce((a, r) => a + num(r[f]), 0);
    if (sum !== num(total[f]))
      bad(`the CSV's share rows' ${f} add up to ${sum}, its total row ${total[f]}`);
  }
  const adjustments = of("adjustment");
  if (adjustments.length !== o.adjustmentIds.length) {
    bad(`the CSV has ${adjustments.length} adjustment rows for ${o.adjustmentIds.length} changes`);
  }
  const goods = [...of("line"), ...adjustments].reduce((a, r) => a + num(r.total), 0);
  if (goods !== ex.subtotal + o.orderFees) {
    bad(
      `the CSV's line and adjustment rows add up to ${goods}, the order's subtotal and order-level amounts to ${ex.subtotal + o.orderFees}`,
    );
  }
}

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
export const money = (c: number) => usd.format(c / 100);

export function checkReceipt(
  w: World,
  o: ModelOrder,
  order: Pick<Order, "total" | "split" | "parts">,
  text: string,
  bad: Report,
): void {
  const has = (s: string) => text.includes(s);
  if (!has(money(cents(order.total))))
    bad(`the receipt does not state the total ${money(cents(order.total))}`);
  for (const s of order.split) {
    if (!has(money(cents(s.total))))
      bad(`the receipt does not state ${nameOf(w, s.userId)}'s share ${money(cents(s.total))}`);
  }
  for (const p of o.payers) {
    const name = nameOf(w, p.userId);
    if (!has(name)) bad(`the receipt does not name the payer ${name}`);
  }
  for (const p of order.parts) {
    if (p.debtor === p.payer || p.amount <= 0) continue;
    if (!has(money(cents(p.amount)))) {
      bad(
        `the receipt does not state ${nameOf(w, p.debtor)}'s part ${money(cents(p.amount))} owed to ${nameOf(w, p.payer)}`,
      );
    }
  }
}
