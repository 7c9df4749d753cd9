/**
 * The order's receipt as a PDF: drawn server-side with PDFKit in the app's own
 * fonts (DM Sans, Sora; the Latin subsets the web app uses), with the order number, date, every
 * line and every share with its settlement status; once adjusted, the changes after checkout,
 * the original and adjusted totals, and each share's change and credit.
 */
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import { creditOwedBy, describeAdjustment, lineRemarks, type Order } from "@cartner/contract";
import { openOf, paidToShop } from "./receipt-text.ts";
import PDFDocument from "pdfkit";
import { decompress } from "wawoff2";
import { zonedDateTime } from "../../../lib/time.ts";
import { formatMoney as formatAmount } from "../../../lib/money.ts";
import { shareStatusLabel } from "./format.ts";

const require = createRequire(import.meta.url);
const FONT_FILES = {
  body: "@fontsource/dm-sans/files/dm-sans-latin-400-normal.woff2",
  bold: "@fontsource/dm-sans/files/dm-sans-latin-700-normal.woff2",
  display: "@fontsource/sora/files/sora-latin-700-normal.woff2",
} as const;
type FontName = keyof typeof FONT_FILES;

/**
 * The fonts as TrueType, decompressed once per process: PDFKit would otherwise inflate the web
 * fonts in JavaScript for every receipt (about 80 of a receipt's 110 ms, measured; decision 009).
 */
let fonts: Promise<Record<FontName, Buffer>> | undefined;
function loadFonts(): Promise<Record<FontName, Buffer>> {
  fonts ??= (async () => {
    const entries = await Promise.all(
      (Object.entries(FONT_FILES) as [FontName, string][]).map(async ([name, file]) => {
        const sfnt = await decompress(await fs.readFile(require.resolve(file)));
        return [name, Buffer.from(sfnt)] as const;
      }),
    );
    return Object.fromEntries(entries) as Record<FontName, Buffer>;
  })();
  return fonts;
}

const INK = "#0f172a";
const MUTED = "#64748b";
const BRAND = "#4f46e5";
const RULE = "#e2e8f0";

interface Column {
  label: string;
  width: number;
  align?: "left" | "right";
}

/** Under a line: who shared it, and what was delivered when an adjustment changed it. */
function lineNote(
  l: Order["lines"][number],
  formatMoney: (amount: number) => string,
): { note?: string } {
  const notes: string[] = lineRemarks(l);
  if (l.sharedWith.length > 0) {
    notes.push(`Shared equally by ${l.sharedWith.map((p) => p.name).join(", ")}`);
  }
  const a = l.adjusted;
  if (a) {
    notes.push(
      a.missing
        ? `Not delivered: now ${formatMoney(0)}`
        : `Delivered: ${a.name}, ${a.quantity} × ${formatMoney(a.unitPrice)}${
            a.refunded > 0 ? `, ${formatMoney(a.refunded)} refunded` : ""
          }: now ${formatMoney(a.lineTotal)}`,
    );
  }
  return notes.length > 0 ? { note: notes.join(" · ") } : {};
}

/** The receipt as `timeZone`'s reader reads it: every time on their clock, named (decision 040). */
export async function renderReceipt(
  order: Order,
  now: Date,
  currency: string,
  timeZone: string,
): Promise<Buffer> {
  const formatMoney = (amount: number) => formatAmount(amount, currency);
  const formatDateTime = (at: string) => zonedDateTime(at, timeZone);
  const font = await loadFonts();
  const doc = new PDFDocument({
    size: "A4",
    margin: 50,
    bufferPages: true,
    info: {
      Title: `Cartner receipt ${order.number}`,
      Author: "Cartner",
      Subject: order.sessionName,
      CreationDate: now,
    },
  });
  for (const name of Object.keys(font) as FontName[]) doc.registerFont(name, font[name]);
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const bottom = () => doc.page.height - doc.page.margins.bottom;

  // Header: brand, then what this is.
  doc.font("display").fontSize(22).fillColor(BRAND).text("Cartner", left, 50);
  doc
    .font("display")
    .fontSize(12)
    .fillColor(MUTED)
    .text("Receipt", left, 56, { width, align: "right" });
  doc.moveDown(0.8);
  doc.font("display").fontSize(18).fillColor(INK).text(order.number);
  doc.font("bold").fontSize(12).text(order.sessionName);
  doc.moveDown(0.3);
  doc.font("body").fontSize(10).fillColor(MUTED);
  doc.text(`Placed ${formatDateTime(order.placedAt)} by ${order.placedBy.name}`);
  doc.text(paidToShop(order, formatMoney));
  doc.moveDown(1.2);

  /** Starts a new page unless `height` more points fit on this one (PDFKit would split text). */
  const keep = (height: number) => {
    if (doc.y + height > bottom()) doc.addPage();
  };

  /** One table: a header row, then rows; a row that would not fit starts a new page. */
  function table(title: string, columns: Column[], rows: { cells: string[]; note?: string }[]) {
    keep(70); // the title, the header and a first row together
    doc.font("display").fontSize(12).fillColor(INK).text(title, left);
    doc.moveDown(0.4);
    const header = () => {
      let x = left;
      const y = doc.y;
      doc.font("bold").fontSize(9).fillColor(MUTED);
      for (const c of columns) {
        doc.text(c.label, x, y, { width: c.width - 6, align: c.align ?? "left" });
        x += c.width;
      }
      doc.y = y + 14;
      doc
        .moveTo(left, doc.y)
        .lineTo(left + width, doc.y)
        .strokeColor(RULE)
        .stroke();
      doc.y += 5;
    };
    header();
    for (const row of rows) {
      doc.font("body").fontSize(10);
      const heights = row.cells.map((cell, i) =>
        doc.heightOfString(cell, { width: columns[i]!.width - 6 }),
      );
      const noteHeight = row.note ? doc.fontSize(8).heightOfString(row.note, { width }) + 2 : 0;
      const height = Math.max(...heights) + noteHeight + 6;
      if (doc.y + height > bottom()) {
        doc.addPage();
        header();
      }
      const y = doc.y;
      let x = left;
      row.cells.forEach((cell, i) => {
        const c = columns[i]!;
        doc
          .font("body")
          .fontSize(10)
          .fillColor(INK)
          .text(cell, x, y, { width: c.width - 6, align: c.align ?? "left" });
        x += c.width;
      });
      doc.y = y + Math.max(...heights) + 2;
      if (row.note) {
        doc.font("body").fontSize(8).fillColor(MUTED).text(row.note, left, doc.y, { width });
      }
      doc.y += 4;
    }
    doc.moveDown(0.8);
  }

  const w = (fraction: number) => Math.floor(width * fraction);
  table(
    "Items",
    [
      { label: "Item", width: w(0.38) },
      { label: "Added by", width: w(0.2) },
      { label: "Qty", width: w(0.08), align: "right" },
      { label: "Unit price", width: w(0.16), align: "right" },
      { label: "Total", width: width - w(0.38) - w(0.2) - w(0.08) - w(0.16), align: "right" },
    ],
    order.lines.map((l) => ({
      cells: [
        l.name,
        l.addedBy.name,
        String(l.quantity),
        formatMoney(l.unitPrice),
        formatMoney(l.lineTotal),
      ],
      ...lineNote(l, formatMoney),
    })),
  );

  // Totals, right-aligned under the items, kept together.
  keep(80);
  const totals: [string, number][] = [
    ["Subtotal", order.subtotal],
    ["Fees", order.fees],
    ["Tax", order.tax],
  ];
  for (const [label, amount] of totals) {
    const y = doc.y;
    doc
      .font("body")
      .fontSize(10)
      .fillColor(MUTED)
      .text(label, left, y, { width: w(0.8), align: "right" });
    doc.fillColor(INK).text(formatMoney(amount), left, y, { width, align: "right" });
  }
  const y = doc.y + 2;
  doc
    .font("bold")
    .fontSize(12)
    .fillColor(INK)
    .text("Total", left, y, { width: w(0.8), align: "right" });
  doc.text(formatMoney(order.total), left, y, { width, align: "right" });
  // Lines hidden from the reader are in the figures, not in the items: said, as a count only.
  if (order.privateCount > 0) {
    doc
      .font("body")
      .fontSize(9)
      .fillColor(MUTED)
      .text(
        `Includes ${order.privateCount} private item${order.privateCount === 1 ? "" : "s"}`,
        left,
        doc.y,
        { width, align: "right" },
      );
  }
  const adjusted = order.adjustments.length > 0;
  if (adjusted) {
    const o = doc.y;
    doc
      .font("body")
      .fontSize(10)
      .fillColor(MUTED)
      .text("Original total at checkout", left, o, { width: w(0.8), align: "right" });
    doc.text(formatMoney(order.originalTotal), left, o, { width, align: "right" });
  }
  doc.moveDown(1.5);

  if (adjusted) {
    table(
      "Changes after checkout",
      [
        { label: "When", width: w(0.26) },
        { label: "Change", width: w(0.54) },
        { label: "By", width: width - w(0.26) - w(0.54) },
      ],
      order.adjustments.map((a) => {
        const notes = [
          ...(a.note ? [`Note: ${a.note}`] : []),
          ...a.disputes.map((d) => `Disputed by ${d.by.name}: ${d.comment}`),
        ];
        return {
          cells: [formatDateTime(a.at), describeAdjustment(a, order.lines, formatMoney), a.by.name],
          ...(notes.length > 0 ? { note: notes.join(" · ") } : {}),
        };
      }),
    );
  }

  table(
    "Shares",
    [
      { label: "Member", width: w(0.28) },
      { label: "Subtotal", width: w(0.15), align: "right" },
      { label: "Fees", width: w(0.12), align: "right" },
      { label: "Tax", width: w(0.12), align: "right" },
      { label: "Share", width: w(0.15), align: "right" },
      {
        label: "Status",
        width: width - w(0.28) - w(0.15) - w(0.12) - w(0.12) - w(0.15),
        align: "right",
      },
    ],
    order.split.map((s) => ({
      cells: [
        s.userId === order.payee._id
          ? `${s.name} (payee)`
          : s.accountDeleted
            ? `${s.name} (account deleted)`
            : s.name,
        formatMoney(s.subtotal),
        formatMoney(s.fees),
        formatMoney(s.tax),
        formatMoney(s.total),
        shareStatusLabel(s),
      ],
      ...(adjusted && s.originalTotal !== s.total
        ? {
            note: `Was ${formatMoney(s.originalTotal)} at checkout${
              s.credit > 0
                ? `; credit ${formatMoney(s.credit)} owed back by ${creditOwedBy(order, s.userId)}`
                : ""
            }${s.status === "unpaid" && s.paid > 0 ? `; ${formatMoney(s.paid)} already paid, ${formatMoney(openOf(order, s.userId))} left` : ""}`,
          }
        : {}),
    })),
  );

  // What each member owes each payer, from the book: the part, and what of it is still open.
  const owes = order.parts.filter((p) => p.amount > 0 || p.open > 0 || p.credit > 0);
  if (owes.length > 0) {
    const nameOf = (id: string) =>
      order.split.find((x) => x.userId === id)?.name ??
      order.payers.find((x) => x.user._id === id)?.user.name ??
      order.payee.name;
    table(
      "Who owes whom",
      [
        { label: "Member", width: w(0.28) },
        { label: "Owes", width: w(0.28) },
        { label: "Part", width: w(0.15), align: "right" },
        { label: "Still owed", width: width - w(0.28) - w(0.28) - w(0.15), align: "right" },
      ],
      owes.map((p) => ({
        cells: [
          nameOf(p.debtor),
          nameOf(p.payer),
          formatMoney(p.amount),
          p.credit > 0 ? `${formatMoney(p.credit)} owed back` : formatMoney(p.open),
        ],
      })),
    );
  }

  keep(40);
  doc
    .font("body")
    .fontSize(8)
    .fillColor(MUTED)
    .text(
      `Members pay ${order.payers.length > 1 ? "the payers" : order.payee.name} directly; Cartner records it. Statuses as of ${formatDateTime(now.toISOString())}.`,
      left,
      doc.y,
      { width },
    );
  // Every page says whose receipt it is and where it stands (drawn in the bottom margin).
  const { count } = doc.bufferedPageRange();
  for (let i = 0; i < count; i++) {
    doc.switchToPage(i);
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font("body")
      .fontSize(8)
      .fillColor(MUTED)
      .text(`${order.number} · page ${i + 1} of ${count}`, left, doc.page.height - 35, {
        width,
        align: "right",
      });
    doc.page.margins.bottom = margin;
  }
  doc.end();
  return done;
}
