/**
 * The bench:history data (scripts/bench-history.ts), also read by scripts/light-query-times.ts: a
 * group of six after three years of weekly shops among ten thousand accounts. Four orders are
 * placed through the API, so every row is what the app writes; each of the 152 older weeks is a
 * copy of one of them made in SQL, its ids, times and sequence numbers moved.
 */
import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { openDatabase, type Database } from "../src/db/client.ts";
import { signUp } from "./bench-support.ts";

/** Three years of weekly shops: the four placed through the API are this week's. */
export const WEEKS = 156;
export const TEMPLATES = 4;
export const USERS = 10_000;
export const LINES = 40;
export const GROUP = 6;

export interface Member {
  userId: string;
  token: string;
}

/** What the API built: the group and its four orders (the copies' originals). */
export interface Group {
  members: Member[];
  orderIds: string[];
}

export type Call = (
  who: Member,
  method: string,
  path: string,
  body?: object,
) => Promise<Record<string, unknown>>;

export const caller =
  (base: string): Call =>
  async (who, method, p, body) => {
    const res = await fetch(`${base}${p}`, {
      method,
      headers: {
        authorization: `Bearer ${who.token}`,
        ...(body ? { "content-type": "application/json" } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (!res.ok)
      throw new Error(`bench: ${method} ${p} answered ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };

/**
 * The group of six and this week's four orders, through the API. Every member adds about a sixth
 * of the 40 lines; the creator pays the shop. Order 1: everyone says they paid, the creator
 * confirms. Order 2: two adjustments (a missing line, a refund), then two transfers confirmed,
 * one paid in cash, two written off. Order 3: two say they paid, not yet confirmed, the rest
 * open. Order 4: one member records a transfer to the creator on the balances page, which
 * settles what they owe on the open orders.
 */
export async function buildGroup(base: string): Promise<Group> {
  const call = caller(base);
  const members: Member[] = [];
  for (let i = 0; i < GROUP; i++) members.push(await signUp(base, `History ${i + 1}`));
  const [payee, ...others] = members as [Member, ...Member[]];
  const { products } = (await call(payee, "GET", "/api/products?limit=100")) as {
    products: Array<{ _id: string; stock: number }>;
  };
  const stocked = products.filter((p) => p.stock >= 10);
  if (stocked.length < LINES) throw new Error("bench: the catalog has too few products in stock");
  const orderIds: string[] = [];
  for (let t = 0; t < TEMPLATES; t++) {
    const { session } = (await call(payee, "POST", "/api/sessions", {
      sessionName: `Weekly shop ${t + 1}`,
      sessionType: "Friends",
      participants: "3+",
      passcode: "history-42",
    })) as { session: { _id: string; sessionCode: string; cartId: string } };
    for (const other of others) {
      await call(other, "POST", "/api/sessions/join/code", {
        sessionCode: session.sessionCode,
        passcode: "history-42",
      });
      await call(payee, "POST", `/api/sessions/approve/${session.sessionCode}`, {
        userId: other.userId,
      });
    }
    for (let line = 0; line < LINES; line++) {
      await call(members[line % GROUP]!, "POST", `/api/carts/${session.cartId}/product`, {
        productId: stocked[(line + t * 7) % stocked.length]!._id,
        quantity: 1 + ((line + t) % 3),
      });
    }
    const { order } = (await call(payee, "POST", `/api/sessions/${session._id}/checkout`)) as {
      order: { _id: string };
    };
    const id = order._id;
    orderIds.push(id);
    const confirm = (m: Member, how: string) =>
      call(payee, "POST", `/api/orders/${id}/confirm/${m.userId}`, { how });
    if (t === 0) {
      for (const m of others) await call(m, "POST", `/api/orders/${id}/paid`);
      for (const m of others) await confirm(m, "transfer");
    } else if (t === 1) {
      await call(payee, "POST", `/api/orders/${id}/adjustments`, {
        kind: "missing",
        lineIndex: 1,
        note: "Out of stock",
      });
      await call(payee, "POST", `/api/orders/${id}/adjustments`, {
        kind: "refund",
        lineIndex: 4,
        amount: 1.5,
        note: "Damaged box",
      });
      for (const m of others.slice(0, 2)) {
        await call(m, "POST", `/api/orders/${id}/paid`);
        await confirm(m, "transfer");
      }
      await confirm(others[2]!, "cash");
      for (const m of others.slice(3)) await confirm(m, "written_off");
    } else if (t === 2) {
      for (const m of others.slice(0, 2)) await call(m, "POST", `/api/orders/${id}/paid`);
    } else {
      const plan = (await call(others[4]!, "GET", "/api/balances/settle-plan")) as {
        transfers: Array<{ to: { _id: string }; amount: number; recordable: boolean }>;
      };
      const owed = plan.transfers.find((p) => p.to._id === payee.userId && p.recordable);
      if (owed) {
        await call(others[4]!, "POST", "/api/balances/transfers", {
          to: payee.userId,
          amount: owed.amount,
        });
      }
    }
  }
  return { members, orderIds };
}

/**
 * The ten thousand accounts and the 152 older weeks, written directly (the server is stopped).
 * Week k before this one is a copy of order k % 4 placed k weeks earlier (the orders still open,
 * 3 and 4, only in the last six weeks: older weeks were settled), with every row of its session:
 * the session and its members, cart and lines, order, shares and payers, the ledger's entries,
 * the activity and the members' notifications (read). Ids are new; sequence numbers (the order's
 * number, the book's and the activity's seq) keep the copies' order of time.
 */
export async function buildHistory(database: Database, group: Group) {
  const { db } = database;
  const run = (query: ReturnType<typeof sql>) => db.execute(query);
  const started = performance.now();
  const [hash] = (await database.rows<{ hash: string }>(
    sql`select password_hash as hash from users where id = ${group.members[0]!.userId}::uuid`,
  )) as [{ hash: string }];
  await run(sql`insert into users (name, email, password_hash, email_verified_at, created_at)
    select 'Shopper ' || i, 'shopper.' || i || '@history.example', ${hash},
      now() - (i || ' minutes')::interval, now() - (i || ' minutes')::interval
    from generate_series(1, ${USERS - GROUP}) i`);

  // One row per copy: the original's session, cart and order, the copy's new ids and time.
  await run(sql`create temporary table history_copies (
    week int, template_order uuid, session_old uuid, session_new uuid, cart_old uuid,
    cart_new uuid, order_old uuid, order_new uuid, shift interval, code text, seq_offset bigint)`);
  const templates = (await database.rows<{ orderId: string; sessionId: string; cartId: string }>(
    sql`select id as "orderId", session_id as "sessionId", cart_id as "cartId" from orders
      where id in (${sql.join(
        group.orderIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
  )) as Array<{ orderId: string; sessionId: string; cartId: string }>;
  const byOrder = new Map(templates.map((t) => [t.orderId, t]));
  const [{ maxSeq }] = (await database.rows<{ maxSeq: string }>(
    sql`select coalesce(max(seq), 0) as "maxSeq" from activity`,
  )) as [{ maxSeq: string }];
  const span = Number(maxSeq) + 1;
  const copies = [];
  for (let week = WEEKS - TEMPLATES; week >= 1; week--) {
    // Open orders (3 and 4) only recently; older weeks alternate the settled ones.
    const which = week <= 6 ? week % TEMPLATES : week % 2;
    const t = byOrder.get(group.orderIds[which]!)!;
    copies.push(
      sql`(${week}, ${t.orderId}::uuid, ${t.sessionId}::uuid, ${crypto.randomUUID()}::uuid,
        ${t.cartId}::uuid, ${crypto.randomUUID()}::uuid, ${t.orderId}::uuid,
        ${crypto.randomUUID()}::uuid, ${`${week * 7} days`}::interval,
        ${`H${crypto.randomBytes(5).toString("hex").toUpperCase()}`},
        ${(WEEKS - week) * span})`,
    );
  }
  await run(sql`insert into history_copies values ${sql.join(copies, sql`, `)}`);
  // Ids named inside text and JSON (urls, activity details) follow the copy.
  const moved = (column: ReturnType<typeof sql>) =>
    sql`replace(replace(replace(${column}, c.session_old::text, c.session_new::text),
      c.order_old::text, c.order_new::text), c.cart_old::text, c.cart_new::text)`;
  await run(sql`insert into sessions (id, name, type, participants, status, budget_cents, code,
      passcode, creator_id, version, split_policy, created_at, updated_at, ended_at)
    select c.session_new, s.name, s.type, s.participants, s.status, s.budget_cents, c.code,
      s.passcode, s.creator_id, s.version, s.split_policy, s.created_at - c.shift,
      s.updated_at - c.shift, s.ended_at - c.shift
    from sessions s join history_copies c on s.id = c.session_old order by c.week desc`);
  await run(sql`insert into session_members (session_id, user_id, role, budget_cents, ready,
      ready_total_cents, created_at)
    select c.session_new, m.user_id, m.role, m.budget_cents, m.ready, m.ready_total_cents,
      m.created_at - c.shift
    from session_members m join history_copies c on m.session_id = c.session_old`);
  await run(sql`insert into carts (id, session_id, status, created_at, updated_at)
    select c.cart_new, c.session_new, k.status, k.created_at - c.shift, k.updated_at - c.shift
    from carts k join history_copies c on k.id = c.cart_old`);
  await run(sql`insert into cart_lines (cart_id, product_id, added_by, quantity,
      unit_price_cents, shared_with, staple, added_at, updated_at)
    select c.cart_new, l.product_id, l.added_by, l.quantity, l.unit_price_cents, l.shared_with,
      l.staple, l.added_at - c.shift, l.updated_at - c.shift
    from cart_lines l join history_copies c on l.cart_id = c.cart_old`);
  await run(sql`insert into orders (id, session_id, cart_id, session_name, placed_at,
      placed_by_id, placed_by_name, payee_id, payee_name, lines, policy, subtotal_cents,
      fees_cents, tax_cents, total_cents, original_total_cents, members, adjustments)
    select c.order_new, c.session_new, c.cart_new, o.session_name, o.placed_at - c.shift,
      o.placed_by_id, o.placed_by_name, o.payee_id, o.payee_name, o.lines, o.policy,
      o.subtotal_cents, o.fees_cents, o.tax_cents, o.total_cents, o.original_total_cents,
      o.members,
      coalesce((select jsonb_agg(a.value || jsonb_build_object('at',
          to_char(((a.value->>'at')::timestamptz - c.shift) at time zone 'UTC',
            'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))) from jsonb_array_elements(o.adjustments) a),
        '[]'::jsonb)
    from orders o join history_copies c on o.id = c.order_old order by c.week desc`);
  await run(sql`insert into order_shares (order_id, user_id, name, subtotal_cents, fees_cents,
      tax_cents, total_cents, original_total_cents, mail)
    select c.order_new, s.user_id, s.name, s.subtotal_cents, s.fees_cents, s.tax_cents,
      s.total_cents, s.original_total_cents, s.mail
    from order_shares s join history_copies c on s.order_id = c.order_old`);
  await run(sql`insert into order_payers (order_id, user_id, name, amount_cents, position)
    select c.order_new, p.user_id, p.name, p.amount_cents, p.position
    from order_payers p join history_copies c on p.order_id = c.order_old`);
  await run(sql`insert into activity (seq, session_id, at, actor_id, actor_name, type, details)
    overriding system value
    select a.seq + c.seq_offset, c.session_new, a.at - c.shift, a.actor_id, a.actor_name, a.type,
      ${moved(sql`a.details::text`)}::jsonb
    from activity a join history_copies c on a.session_id = c.session_old`);
  await run(
    sql`select setval(pg_get_serial_sequence('activity', 'seq'), (select max(seq) from activity))`,
  );
  // An entry's id, its event's txn and the claim it names move with the copy (md5 of the old id
  // and the week: the same new id wherever the old one is named).
  const renamed = (column: ReturnType<typeof sql>) =>
    sql`md5(${column}::text || ':' || c.week)::uuid`;
  await run(sql`insert into ledger_entries (id, order_id, txn, at, kind, from_id, to_id,
      amount_cents, pending, ref_id, by_id, by_name, note, idempotency_key, activity_seq)
    select ${renamed(sql`e.id`)}, c.order_new, ${renamed(sql`e.txn`)}, e.at - c.shift, e.kind,
      e.from_id, e.to_id, e.amount_cents, e.pending,
      case when e.ref_id is null then null else ${renamed(sql`e.ref_id`)} end,
      e.by_id, e.by_name, e.note, null, e.activity_seq + c.seq_offset
    from ledger_entries e join history_copies c on e.order_id = c.order_old
    order by c.week desc, e.seq`);
  await run(sql`insert into notifications (user_id, kind, session_id, order_id, title, body, url,
      count, created_at, read_at)
    select n.user_id, n.kind, c.session_new, c.order_new, n.title, n.body, ${moved(sql`n.url`)},
      n.count, n.created_at - c.shift, n.created_at - c.shift + interval '1 hour'
    from notifications n join history_copies c on n.session_id = c.session_old
    order by c.week desc, n.seq`);
  await run(sql`drop table history_copies`);
  await run(sql`analyze`);
  const counts = (await database.rows<Record<string, string>>(sql`select
      (select count(*) from users) as users, (select count(*) from orders) as orders,
      (select count(*) from ledger_entries) as entries, (select count(*) from activity) as activity,
      (select count(*) from notifications) as notifications`)) as [Record<string, string>];
  console.info(
    `bench:history: built in ${((performance.now() - started) / 1000).toFixed(1)} s:`,
    Object.fromEntries(Object.entries(counts[0]).map(([k, v]) => [k, Number(v)])),
  );
}

/** Opens the server's database while it is stopped (the embedded one allows one process). */
export async function withDatabase<T>(
  env: Record<string, string>,
  task: (db: Database) => Promise<T>,
) {
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR!,
    migrate: false,
  });
  try {
    return await task(database);
  } finally {
    await database.close();
  }
}
