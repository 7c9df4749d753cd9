/**
 * The orders as CSV (PGlite and PostgreSQL): parsed back, they hold what the API says, in a
 * form a spreadsheet opens as is (BOM, ISO times, plain amounts), only for those who may read.
 */
import type { Order } from "@cartner/contract";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, filledSession, type TestApp } from "../helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const AMOUNT = /^-?\d+\.\d{2}$/;

/** The body as a spreadsheet reads it: the BOM first, then rows of named columns. */
function readCsv(body: string): Record<string, string>[] {
  expect(body.startsWith("\uFEFF")).toBe(true);
  return parse(body, { bom: true, columns: true }) as Record<string, string>[];
}

async function placed(sessionName?: string) {
  const f = await filledSession(t);
  if (sessionName) {
    const renamed = await f.as.creator("PATCH", `/api/sessions/${f.sessionId}`, { sessionName });
    expect(renamed.statusCode, renamed.body).toBe(200);
  }
  const res = await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`);
  expect(res.statusCode, res.body).toBe(201);
  return { ...f, order: res.json().order as Order };
}

describe("one order as CSV", () => {
  it("lists every line, every share and the totals, as the order says", async () => {
    const f = await placed();
    const res = await f.as.participant("GET", `/api/orders/${f.order._id}/export.csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe(
      `attachment; filename="cartner-${f.order.number}.csv"`,
    );
    expect(res.body).toContain("\r\n");
    const rows = readCsv(res.body);
    const { entries } = (
      await f.as.participant("GET", `/api/orders/${f.order._id}/entries`)
    ).json() as { entries: { kind: string; amount: number; from: { name: string } }[] };
    expect(rows.map((r) => r.type)).toEqual([
      ...f.order.lines.map(() => "line"),
      ...f.order.split.map((s) => (s.userId === f.people.creator.userId ? "payee_share" : "share")),
      ...entries.map(() => "entry"),
      "order_total",
    ]);
    // The book's entries, each with who owes whom and how much.
    expect(
      rows.filter((r) => r.type === "entry").map((r) => [r.name, r.from, Number(r.total)]),
    ).toEqual(entries.map((e) => [e.kind, e.from.name, e.amount]));
    for (const row of rows) {
      expect(row.order).toBe(f.order.number);
      expect(row.placed_at).toMatch(ISO_UTC);
      expect(new Date(row.placed_at!).getTime()).toBe(
        Math.floor(new Date(f.order.placedAt).getTime() / 1000) * 1000,
      );
      expect(row.total).toMatch(AMOUNT);
    }
    const lines = rows.filter((r) => r.type === "line");
    expect(
      lines.map((r) => [r.name, Number(r.quantity), Number(r.unit_price), Number(r.total)]),
    ).toEqual(f.order.lines.map((l) => [l.name, l.quantity, l.unitPrice, l.lineTotal]));
    const shares = rows.filter((r) => r.type!.endsWith("share"));
    expect(shares.map((r) => [r.name, Number(r.total), r.status])).toEqual(
      f.order.split.map((s) => [s.name, s.total, s.status]),
    );
    const total = rows.at(-1)!;
    expect([total.name, Number(total.subtotal), Number(total.total)]).toEqual([
      f.order.sessionName,
      f.order.subtotal,
      f.order.total,
    ]);
  });

  it("keeps names with commas, quotes and accents whole, and defuses formulas", async () => {
    const f = await placed('=HYPERLINK("x"), "Crème" brûlée');
    const res = await f.as.creator("GET", `/api/orders/${f.order._id}/export.csv`);
    const total = readCsv(res.body).at(-1)!;
    expect(total.name).toBe(`'=HYPERLINK("x"), "Crème" brûlée`);
  });

  it("is read only by those who may read the order", async () => {
    const f = await placed();
    const url = `/api/orders/${f.order._id}/export.csv`;
    expect((await f.as.creator("GET", url)).statusCode).toBe(200);
    for (const role of ["stranger", "viewer", "pending"] as const) {
      expect((await f.as[role]("GET", url)).statusCode, role).toBe(404);
    }
    expect((await f.as.creator("GET", "/api/orders/nope/export.csv")).statusCode).toBe(400);
    expect((await t.app.inject({ method: "GET", url })).statusCode).toBe(401);
  });
});

describe("my orders as CSV", () => {
  it("has a row for each share I owe, and as payee for each share owed to me", async () => {
    const first = await placed();
    const ben = first.people.participant.userId;
    const paid = await first.as.participant("POST", `/api/orders/${first.order._id}/paid`);
    expect(paid.statusCode).toBe(200);

    const mine = await first.as.participant("GET", "/api/orders/export.csv");
    expect(mine.statusCode).toBe(200);
    expect(mine.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(mine.headers["content-disposition"]).toBe('attachment; filename="cartner-orders.csv"');
    const benRows = readCsv(mine.body);
    const benShare = first.order.split.find((s) => s.userId === ben)!;
    expect(benRows).toEqual([
      expect.objectContaining({
        order: first.order.number,
        session: first.order.sessionName,
        payee: "Ann",
        member: "Ben",
        your_part: "you owe",
        share_total: benShare.total.toFixed(2),
        order_total: first.order.total.toFixed(2),
        status: "paid",
        settled_as: "",
        confirmed_at: "",
      }),
    ]);
    expect(benRows[0]!.paid_at).toMatch(ISO_UTC);

    const annRows = readCsv((await first.as.creator("GET", "/api/orders/export.csv")).body);
    expect(annRows.map((r) => [r.member, r.your_part, Number(r.share_total)])).toEqual(
      first.order.split.map((s) => [s.name, s.userId === ben ? "owed to you" : "payee", s.total]),
    );
    for (const row of annRows) {
      for (const column of ["subtotal", "fees", "tax", "share_total", "order_total"]) {
        expect(row[column], column).toMatch(AMOUNT);
      }
    }
  });

  it("is only a header for someone without orders", async () => {
    const f = await filledSession(t);
    const res = await f.as.stranger("GET", "/api/orders/export.csv");
    expect(res.statusCode).toBe(200);
    expect(res.body.split("\r\n")[0]).toBe(
      "\uFEFForder,placed_at,session,payee,member,your_part,subtotal,fees,tax,share_total,status,settled_as,paid_at,confirmed_at,order_total",
    );
    expect(readCsv(res.body)).toEqual([]);
  });
});
