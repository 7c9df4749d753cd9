/**
 * Orders as CSV a spreadsheet opens without fixing: UTF-8 with a byte order mark (Excel reads
 * UTF-8 only with it), CRLF rows (RFC 4180), one header row, ISO 8601 times on the reader's clock
 * with their offset (lib/time.ts, decision 040), amounts as plain numbers with a dot and two
 * decimals, and text that could start a formula defused.
 */
import {
  applyAdjustments,
  describeAdjustment,
  lineRemarks,
  toCents,
  type Adjustment,
  type LedgerEntry,
  type Order,
} from "@cartner/contract";

/**
 * Each change after checkout with what it moved the order's lines and order-level amounts by
 * (cents, signed): the re-split's lines after it less those before it.
 */
function changesOf(order: Order): { adjustment: Adjustment; cents: number }[] {
  const lines = order.lines.map((l) => ({
    name: l.name,
    unitPrice: toCents(l.unitPrice),
    quantity: l.quantity,
    addedBy: l.addedBy._id,
  }));
  const inCents = order.adjustments.map((a) => ({
    kind: a.kind,
    lineIndex: a.lineIndex,
    quantity: a.quantity,
    unitPrice: a.unitPrice === undefined ? undefined : toCents(a.unitPrice),
    amount: a.amount === undefined ? undefined : toCents(a.amount),
    name: a.name,
  }));
  const worth = (n: number) => {
    const after = applyAdjustments(lines, inCents.slice(0, n));
    return after.lines.reduce((sum, l) => sum + l.lineTotal, 0) + after.orderFees;
  };
  return order.adjustments.map((adjustment, i) => ({
    adjustment,
    cents: worth(i + 1) - worth(i),
  }));
}
import { stringify } from "csv-stringify/sync";
import { zonedIso } from "../../lib/time.ts";

type Cell = string | number | null;

/** 12.4 -> "12.40": spreadsheets read it as a number in any locale that accepts a dot. */
const amount = (value: number): string => value.toFixed(2);

/** "2026-11-26T11:00:00+01:00" in Europe/Berlin ("…Z" in UTC): ISO 8601, to the second. */
const timeIn =
  (timeZone: string) =>
  (value: string | null): string =>
    value === null ? "" : zonedIso(value, timeZone);

/**
 * Text people typed (names, products) may start with = + - @ or a tab: a spreadsheet would run
 * it as a formula (CSV injection), so it gets a leading apostrophe, which spreadsheets hide.
 */
export function textCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function toCsv(header: string[], rows: Cell[][]): string {
  return stringify([header, ...rows], { bom: true, record_delimiter: "windows" });
}

/** The person's side of each order: every share owed to them as payee, and their own share. */
export function ordersCsv(
  orders: Pick<Order, "number" | "placedAt" | "sessionName" | "payee" | "total" | "split">[],
  userId: string,
  timeZone: string,
): string {
  const isoTime = timeIn(timeZone);
  const header = [
    "order",
    "placed_at",
    "session",
    "payee",
    "member",
    "your_part",
    "subtotal",
    "fees",
    "tax",
    "share_total",
    "status",
    "settled_as",
    "paid_at",
    "confirmed_at",
    "order_total",
  ];
  const rows: Cell[][] = [];
  for (const order of orders) {
    const isPayee = order.payee._id === userId;
    for (const share of order.split) {
      if (!isPayee && share.userId !== userId) continue;
      rows.push([
        order.number,
        isoTime(order.placedAt),
        textCell(order.sessionName),
        textCell(order.payee.name),
        textCell(share.name),
        share.userId === userId ? (isPayee ? "payee" : "you owe") : "owed to you",
        amount(share.subtotal),
        amount(share.fees),
        amount(share.tax),
        amount(share.total),
        share.status,
        share.settledAs ?? "",
        isoTime(share.paidAt),
        isoTime(share.confirmedAt),
        amount(order.total),
      ]);
    }
  }
  return toCsv(header, rows);
}

/**
 * Lines hidden from the reader (private lines), as one row of what they add to the subtotal (what
 * they cost now): with the reader's lines and the changes to them it makes the subtotal, so the
 * reader's line, change and private rows add up as everyone's do (to the subtotal plus the
 * order-level amounts, whose change rows are not the lines'). None when nothing is hidden.
 */
function privateRow(order: Order, start: Cell[]): Cell[][] {
  if (order.privateCount === 0) return [];
  const seen =
    order.lines.reduce((sum, l) => sum + toCents(l.lineTotal), 0) +
    changesOf(order)
      .filter((c) => c.adjustment.lineIndex !== undefined)
      .reduce((sum, c) => sum + c.cents, 0);
  const n = order.privateCount;
  return [
    [
      ...start,
      "private",
      `${n} private item${n === 1 ? "" : "s"}`,
      ...Array<Cell>(6).fill(""),
      amount((toCents(order.subtotal) - seen) / 100),
      ...Array<Cell>(7).fill(""),
    ],
  ];
}

/**
 * One order, adding up: a row per line as placed, a row per change after checkout ("adjustment": a line's new
 * total less its old one; an order fee or discount), a row per share, a row per entry of the
 * order's book (who owes whom what, and every payment and settlement), and the totals; `type`
 * says which ("private": the lines hidden from the reader, one row of their amount, never their
 * names). The lines, their changes and that row add up to the subtotal plus the order-level
 * amounts (an order fee or discount), the shares to the total, and
 * each two people's entries to what the shares' parts say is still open between them.
 */
export function orderCsv(order: Order, entries: LedgerEntry[], timeZone: string): string {
  const isoTime = timeIn(timeZone);
  const header = [
    "order",
    "placed_at",
    "type",
    "name",
    "added_by",
    "quantity",
    "unit_price",
    "subtotal",
    "fees",
    "tax",
    "total",
    "status",
    "settled_as",
    "paid_at",
    "confirmed_at",
    "from",
    "to",
    "note",
  ];
  const start = [order.number, isoTime(order.placedAt)];
  const blank = (n: number) => Array<Cell>(n).fill("");
  const changes = changesOf(order).map(({ adjustment: a, cents }) => [
    ...start,
    "adjustment",
    textCell(describeAdjustment(a, order.lines, amount)),
    textCell(a.by.name),
    "",
    "",
    "",
    "",
    "",
    amount(cents / 100),
    ...blank(4),
    "",
    "",
    textCell(a.note ?? ""),
  ]);
  const rows: Cell[][] = [
    ...order.lines.map((line) => [
      ...start,
      "line",
      textCell(line.name),
      textCell(line.addedBy.name),
      line.quantity,
      amount(line.unitPrice),
      "",
      "",
      "",
      amount(line.lineTotal),
      ...blank(6),
      textCell(lineRemarks(line).join("; ")),
    ]),
    ...changes,
    ...privateRow(order, start),
    ...order.split.map((share) => [
      ...start,
      share.userId === order.payee._id ? "payee_share" : "share",
      textCell(share.name),
      "",
      "",
      "",
      amount(share.subtotal),
      amount(share.fees),
      amount(share.tax),
      amount(share.total),
      share.status,
      share.settledAs ?? "",
      isoTime(share.paidAt),
      isoTime(share.confirmedAt),
      "",
      "",
      "",
    ]),
    ...entries.map((e) => [
      ...start,
      "entry",
      e.pending ? `${e.kind} (waiting)` : e.kind,
      textCell(e.by.name),
      "",
      "",
      "",
      "",
      "",
      amount(e.amount),
      "",
      "",
      isoTime(e.at),
      "",
      textCell(e.from.name),
      textCell(e.to.name),
      textCell(e.note ?? ""),
    ]),
    [
      ...start,
      "order_total",
      textCell(order.sessionName),
      "",
      "",
      "",
      amount(order.subtotal),
      amount(order.fees),
      amount(order.tax),
      amount(order.total),
      ...blank(7),
    ],
  ];
  return toCsv(header, rows);
}
