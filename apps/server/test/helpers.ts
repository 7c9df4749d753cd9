import crypto from "node:crypto";
import fs from "node:fs/promises";
import { desc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { inject } from "vitest";
import { buildApp, type AppOverrides } from "../src/app.ts";
import { loadConfig, type Config } from "../src/config.ts";
import { openDatabase, type Database } from "../src/db/client.ts";
import { devMails } from "../src/db/schema.ts";
import type { Clock } from "../src/lib/clock.ts";
import { withDatabase } from "./global-setup.ts";

/** A clock tests move by hand. */
export class TestClock implements Clock {
  private time: number;
  constructor(start = Date.now()) {
    this.time = start;
  }
  now(): Date {
    return new Date(this.time);
  }
  advance(ms: number): void {
    this.time += ms;
  }
}

/** A fresh, migrated database for one test file: PGlite in memory, or a PostgreSQL clone. */
export async function freshDatabase(): Promise<Database> {
  if (process.env.TEST_DB === "postgres") {
    const url = process.env.TEST_DATABASE_URL!;
    const name = `cartner_test_${crypto.randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    // Cloning needs the template to be idle; parallel test files may clone at the same moment.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`create database "${name}" template "${inject("postgresTemplate")}"`);
        break;
      } catch (error) {
        if (attempt >= 20 || !/being accessed by other users/.test(String(error))) throw error;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
    await admin.end();
    const database = await openDatabase({
      databaseUrl: withDatabase(url, name),
      dataDir: "memory://",
      migrate: false,
    });
    return {
      ...database,
      close: async () => {
        await database.close();
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query(`drop database if exists "${name}" with (force)`);
        await c.end();
      },
    };
  }
  const dump = await fs.readFile(inject("pgliteTemplate"));
  return openDatabase({ dataDir: "memory://", loadDataDir: new Blob([dump]), migrate: false });
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: "test",
    DATA_DIR: "memory://",
    LOG_LEVEL: "silent",
    WEB_DIST: "/nonexistent",
    AUTH_RATE_LIMIT: "10000",
    RATE_LIMIT: "100000",
    ...env,
  });
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  clock: TestClock;
  close(): Promise<void>;
}

export async function createTestApp(
  options: { env?: Record<string, string> } & Omit<AppOverrides, "database" | "clock"> = {},
): Promise<TestApp> {
  const database = await freshDatabase();
  const clock = new TestClock();
  const { env, ...overrides } = options;
  // With a queue clock (pg-boss's TestClock), the app reads the time from it, as jobs do.
  const app = await buildApp(testConfig(env), {
    ...overrides,
    database,
    ...(overrides.queueClock ? {} : { clock }),
  });
  await app.ready();
  return { app, database, clock, close: () => app.close() };
}

let counter = 0;
/**
 * A second instance of the app on the test app's PostgreSQL database (its own pool, bus and
 * caches), as another server of the same deployment; the caller closes it.
 */
export async function secondInstance(t: TestApp, env: Record<string, string> = {}) {
  const database = await openDatabase({
    databaseUrl: t.database.url!,
    dataDir: "memory://",
    migrate: false,
  });
  const other = await buildApp(testConfig(env), { database });
  await other.ready();
  return other;
}

export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}.${counter}.${crypto.randomBytes(3).toString("hex")}@example.com`;
}

/** The code from the newest mail to this address (the dev outbox keeps mails in the database). */
export async function latestCode(database: Database, email: string): Promise<string> {
  const [mail] = await database.db
    .select()
    .from(devMails)
    .where(eq(devMails.recipient, email))
    .orderBy(desc(devMails.createdAt))
    .limit(1);
  const code = mail?.text.match(/Your code: (\d{6})/)?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

export const PASSWORD = "plum-orchard-42";

/** Registers and verifies a user; returns the token and ids. */
export async function signUp(t: TestApp, name = "Ann") {
  const email = uniqueEmail(name.toLowerCase());
  const register = await t.app.inject({
    method: "POST",
    url: "/api/auth/register",
    payload: { name, email, password: PASSWORD },
  });
  if (register.statusCode !== 201) throw new Error(`register failed: ${register.body}`);
  const { userId } = register.json();
  const code = await latestCode(t.database, email);
  const verify = await t.app.inject({
    method: "POST",
    url: "/api/auth/verify-otp",
    payload: { userId, code },
  });
  if (verify.statusCode !== 200) throw new Error(`verify failed: ${verify.body}`);
  return { email, userId: userId as string, token: verify.json().token as string };
}

/** A signed-in client for app.inject. */
export function client(t: TestApp, token: string) {
  return (method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}
export type Client = ReturnType<typeof client>;

/** Ann's session with Ben (participant), Vic (viewer), Pat (pending) and Sam (stranger). */
export async function sessionWithEveryRole(t: TestApp) {
  const people = {
    creator: await signUp(t, "Ann"),
    participant: await signUp(t, "Ben"),
    viewer: await signUp(t, "Vic"),
    pending: await signUp(t, "Pat"),
    stranger: await signUp(t, "Sam"),
  };
  const as = Object.fromEntries(
    Object.entries(people).map(([role, p]) => [role, client(t, p.token)]),
  ) as Record<keyof typeof people, Client>;
  const created = await as.creator("POST", "/api/sessions", {
    sessionName: "Weekend groceries",
    sessionType: "Friends",
    participants: "3+",
    passcode: "tulip",
    budget: 150,
  });
  if (created.statusCode !== 201) throw new Error(created.body);
  const session = created.json().session;
  const code = session.sessionCode as string;
  for (const role of ["participant", "pending"] as const) {
    const join = await as[role]("POST", "/api/sessions/join/code", {
      sessionCode: code,
      passcode: "tulip",
    });
    if (join.statusCode !== 202) throw new Error(join.body);
  }
  await as.creator("POST", `/api/sessions/approve/${code}`, { userId: people.participant.userId });
  await as.creator("POST", "/api/sessions/invite", {
    sessionCode: code,
    emailOrUsername: people.viewer.email,
    role: "viewer",
  });
  const acc = await as.viewer("POST", "/api/sessions/accinvite", { sessionCode: code });
  if (acc.statusCode !== 200) throw new Error(acc.body);
  return { people, as, sessionId: session._id as string, code, cartId: session.cartId as string };
}

/**
 * sessionWithEveryRole() with a line each for Ann (creator, 2 of one product) and Ben
 * (participant, 3 of another), from products with stock to spare.
 */
export async function filledSession(t: TestApp) {
  const f = await sessionWithEveryRole(t);
  const products = (await f.as.creator("GET", "/api/products?limit=50")).json().products as {
    _id: string;
    stock: number;
  }[];
  const [a, b] = products.filter((p) => p.stock > 10);
  for (const [role, product, quantity] of [
    ["creator", a!, 2],
    ["participant", b!, 3],
  ] as const) {
    const res = await f.as[role]("POST", `/api/carts/${f.cartId}/product`, {
      productId: product._id,
      quantity,
    });
    if (res.statusCode !== 200) throw new Error(res.body);
  }
  return f;
}

/**
 * Runs `fn` with the log written to a string. pino writes to process.stdout when its `write` was
 * replaced before the logger was made (else straight to file descriptor 1), so build the app inside.
 */
export async function captureLog(fn: () => Promise<void>): Promise<string> {
  const original = process.stdout.write;
  let captured = "";
  process.stdout.write = ((chunk: string | Uint8Array) => {
    captured += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  try {
    await fn();
  } finally {
    process.stdout.write = original;
  }
  return captured;
}

/** POST /api/profile/me as multipart/form-data with these text fields (names sent as given). */
export function postProfileForm(t: TestApp, token: string, fields: Record<string, string>) {
  const boundary = "----cartner-test";
  const parts = Object.entries(fields).map(
    ([name, value]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return t.app.inject({
    method: "POST",
    url: "/api/profile/me",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": `multipart/form-data; boundary=${boundary}`,
    },
    payload: `${parts.join("")}--${boundary}--\r\n`,
  });
}

/** An error body without its request id (each request has its own), to compare two answers. */
export function withoutRequestId(body: unknown): unknown {
  if (typeof body !== "object" || body === null) return body;
  const { requestId: _requestId, ...rest } = body as Record<string, unknown>;
  return rest;
}

/** An API amount (currency units) in cents. */
export const cents = (amount: number) => Math.round(amount * 100);
/** The sum of some cents. */
export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
