/**
 * Private lines as each reader reads them (decision 049), against the model: a line hidden from a
 * member is left out of their summary, order, CSV and receipt and counted in their
 * `privateCount`; the money is unchanged (totals and shares include it), so their own figures add
 * up: the lines they see plus what is private make the subtotal, the shares the total. The
 * order's view for a reader is the payee's (who sees every line) with the lines hidden from the
 * reader left out, with the changes about them, the rest renumbered to the reader's lines, and
 * whom a line is hidden from shown only to its adder and the payee.
 */
import type { Order } from "@cartner/contract";
import { parse } from "csv-parse/sync";
import type { ReaderSummary } from "./checkout.ts";
import { lineTotal } from "./line-changes.ts";
import { exactOf, nameOf, type ModelOrder, type World } from "./model.ts";
import { cents, type Report } from "./read-order.ts";

/** Whether any line of the order is private from anyone. */
export const hasPrivate = (o: ModelOrder) => o.frozen.some((f) => f.hiddenFrom.length > 0);

/** The lines hidden from `reader`, by the order's index. */
export const hiddenFrom = (o: ModelOrder, reader: string) =>
  o.frozen.flatMap((f, i) => (f.hiddenFrom.includes(reader) ? [i] : []));

/** What the lines hidden from `reader` cost now, in cents. */
export const privateAmount = (o: ModelOrder, reader: string) =>
  hiddenFrom(o, reader).reduce((a, i) => a + lineTotal(o.lines[i]!), 0);

/** A session's summary as each member read it just before checkout. */
export function checkReaderSummaries(
  w: World,
  o: ModelOrder,
  readers: ReaderSummary[],
  bad: Report,
): void {
  const ex = exactOf(o);
  for (const { userId, json } of readers) {
    const say = (m: string) => bad(`${nameOf(w, userId)}'s summary: ${m}`);
    const hidden = hiddenFrom(o, userId);
    const want = o.frozen.filter((_, i) => !hidden.includes(i)).map((f) => f.name);
    const names = json.cartItems.map((c) => c.product.name);
    if ([...names].sort().join("|") !== [...want].sort().join("|"))
      say(`lists ${names.join(", ")}, the model ${want.join(", ")}`);
    if (json.privateCount !== hidden.length)
      say(`privateCount ${json.privateCount}, the model ${hidden.length}`);
    if (cents(json.subtotal) !== ex.subtotal || cents(json.total) !== ex.total)
      say(
        `subtotal ${json.subtotal} and total ${json.total}, the model ${ex.subtotal} and ${ex.total}`,
      );
    const seen = json.cartItems.reduce((a, c) => a + cents(c.product.price) * c.quantity, 0);
    if (seen + privateAmount(o, userId) !== ex.subtotal)
      say(`its lines ${seen} and ${privateAmount(o, userId)} private do not make ${ex.subtotal}`);
    const shares = json.split.reduce((a, s) => a + cents(s.total), 0);
    if (shares !== ex.total) say(`the shares add up to ${shares}, not ${ex.total}`);
  }
}

/** The order as `reader` should read it, made from the payee's and the model's private lines. */
export function orderAsSeenBy(o: ModelOrder, payees: Order, reader: string): Order {
  if (!hasPrivate(o)) return payees;
  const hidden = hiddenFrom(o, reader);
  const at = new Map<number, number>();
  const lines: Order["lines"] = [];
  payees.lines.forEach((l, i) => {
    if (hidden.includes(i)) return;
    at.set(i, lines.length);
    const shows = reader === o.payee || o.frozen[i]!.adder === reader;
    lines.push(shows ? l : { ...l, hiddenFrom: [] });
  });
  const adjustments = payees.adjustments.flatMap((a, k) => {
    const line = o.adjustmentLines[k] ?? null;
    if (line === null) return [a];
    return at.has(line) ? [{ ...a, lineIndex: at.get(line)! }] : [];
  });
  return { ...payees, lines, adjustments, privateCount: hidden.length };
}

/** The payee's order: every line, whom it is hidden from as the model says, nothing private. */
export function checkPayeeView(w: World, o: ModelOrder, order: Order, bad: Report): void {
  if (order.privateCount !== 0) bad(`the payee's privateCount is ${order.privateCount}`);
  o.frozen.forEach((f, i) => {
    const shown = [...(order.lines[i]?.hiddenFrom ?? [])].sort().join();
    if (shown !== [...f.hiddenFrom].sort().join())
      bad(
        `line ${i} (${f.name}) is hidden from ${shown || "nobody"}, the model ${f.hiddenFrom.map((id) => nameOf(w, id)).join(", ") || "nobody"}`,
      );
  });
  if (order.adjustments.length !== o.adjustmentLines.length)
    bad(
      `the order has ${order.adjustments.length} adjustments, the model ${o.adjustmentLines.length}`,
    );
  order.adjustments.forEach((a, k) => {
    if ((a.lineIndex ?? null) !== (o.adjustmentLines[k] ?? null))
      bad(`adjustment ${k} names line ${a.lineIndex}, the model ${o.adjustmentLines[k]}`);
  });
}

/** A reader's own order: what they see adds up to the stored figures. */
export function checkReaderOrder(o: ModelOrder, order: Order, reader: string, bad: Report): void {
  const seen =
    order.lines.reduce((a, l) => a + cents(l.adjusted ? l.adjusted.lineTotal : l.lineTotal), 0) +
    privateAmount(o, reader);
  if (seen !== cents(order.subtotal))
    bad(
      `the lines seen and ${privateAmount(o, reader)} private make ${seen}, not ${cents(order.subtotal)}`,
    );
  const shares = order.split.reduce((a, s) => a + cents(s.total), 0);
  if (shares !== cents(order.total))
    bad(`the shares add up to ${shares}, not ${cents(order.total)}`);
}

type Row = Record<string, string>;
const num = (cell: string | undefined) => (cell ? Math.round(Number(cell) * 100) : 0);

/**
 * A reader's CSV: a line row per line they see, an adjustment row per change they see, one
 * `private` row of what the rest costs now (none when nothing is hidden from them), no cell
 * naming a hidden line; together they make the subtotal plus order-level amounts.
 */
export function checkReaderCsv(o: ModelOrder, reader: string, text: string, bad: Report): void {
  const rows = parse(text, { bom: true, columns: true }) as Row[];
  const hidden = hiddenFrom(o, reader);
  const of = (type: string) => rows.filter((r) => r.type === type);
  const lines = of("line");
  if (lines.length !== o.frozen.length - hidden.length)
    bad(`${lines.length} line rows, the model ${o.frozen.length - hidden.length}`);
  const changes = o.adjustmentLines.filter((l) => l === null || !hidden.includes(l)).length;
  if (of("adjustment").length !== changes)
    bad(`${of("adjustment").length} adjustment rows, the model ${changes}`);
  const priv = of("private");
  if (priv.length !== (hidden.length > 0 ? 1 : 0)) bad(`${priv.length} private rows`);
  if (priv[0] && num(priv[0].total) !== privateAmount(o, reader))
    bad(`the private row is ${priv[0].total}, the model ${privateAmount(o, reader)}`);
  const names = new Set(hidden.flatMap((i) => [o.frozen[i]!.name, o.lines[i]!.name]));
  if (rows.some((r) => Object.values(r).some((c) => names.has(c))))
    bad(`a row names a line hidden from the reader`);
  const ex = exactOf(o);
  const goods = [...lines, ...of("adjustment"), ...priv].reduce((a, r) => a + num(r.total), 0);
  if (goods !== ex.subtotal + o.orderFees)
    bad(`lines, changes and private add up to ${goods}, not ${ex.subtotal + o.orderFees}`);
}

/** A reader's receipt says how many items are private from them (and nothing when none are). */
export function checkReaderReceipt(o: ModelOrder, reader: string, text: string, bad: Report) {
  const n = hiddenFrom(o, reader).length;
  const note = `Includes ${n} private item${n === 1 ? "" : "s"}`;
  if (n > 0 && !text.includes(note)) bad(`the receipt does not say "${note}"`);
  if (n === 0 && /private item/.test(text)) bad(`the receipt speaks of private items`);
}
