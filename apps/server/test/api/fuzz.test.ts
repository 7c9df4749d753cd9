/**
 * A property-based walk of every route in the served OpenAPI document, as a member and
 * as a stranger, with generated params, queries and bodies made of nasty strings (NUL, control
 * characters, unpaired surrogates, bidi marks, 100 KB strings, emoji sequences), wrong types,
 * extra keys and huge numbers. Whatever arrives: never a 5xx, never slower than 5 s, and a refused
 * request (4xx) changes nothing in the database (a checksum of its tables).
 *
 * FUZZ_RUNS sets the random requests per route (default 10; with the per-field runs about 800
 * requests, under 15 s in CI); try
 * FUZZ_RUNS=200 npx vitest run --project server:pglite apps/server/test/api/fuzz.test.ts
 */
import { ProfileFieldsSchema } from "@cartner/contract";
import fc from "fast-check";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, sessionWithEveryRole, type TestApp } from "../helpers.ts";

const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 10);
/** Generated values per body field, after the fixed nasty ones. */
const RUNS_PER_FIELD = Math.ceil(RUNS_PER_ROUTE / 3);
const SLOWEST_MS = 5_000;

/**
 * Tables a refused request may legitimately write: auth sessions record when they were last seen,
 * wrong codes count against the code and the account, wrong join passcodes are recorded to slow
 * guessing. Everything else must stay exactly as it was.
 */
const CHANGES_ON_REFUSAL = new Set(["auth_sessions", "otp_codes", "otp_failures", "join_failures"]);
/** Routes left out: logging out would end the walk's own session for every later request. */
const NOT_WALKED = new Set(["POST /api/auth/logout"]);

interface Operation {
  key: string;
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** A valid body built from the route's schema: the fuzz mutates one or two of its fields. */
  example: Record<string, unknown> | null;
  multipart: boolean;
}

let t: TestApp;
const operations: Operation[] = [];
let fixture: Awaited<ReturnType<typeof sessionWithEveryRole>> & { productId: string };
let tables: string[] = [];
let sent = 0;

beforeAll(async () => {
  t = await createTestApp();
  fixture = { ...(await sessionWithEveryRole(t)), productId: "" };
  const products = (await fixture.as.creator("GET", "/api/products?limit=1")).json().products;
  fixture.productId = products[0]._id;
  await fixture.as.creator("POST", `/api/carts/${fixture.cartId}/product`, {
    productId: fixture.productId,
  });
  const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
  for (const [path, methods] of Object.entries<Record<string, OpenApiOperation>>(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const key = `${method.toUpperCase()} ${path}`;
      if (NOT_WALKED.has(key)) continue;
      const params = op.parameters ?? [];
      const content = op.requestBody?.content ?? {};
      const json = content["application/json"]?.schema;
      const multipart = "multipart/form-data" in content || (op.consumes ?? []).length > 0;
      operations.push({
        key,
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
        queryParams: params.filter((p) => p.in === "query").map((p) => p.name),
        multipart,
        example: json
          ? (example(json) as Record<string, unknown>)
          : multipart
            ? PROFILE_FORM_EXAMPLE
            : null,
      });
    }
  }
  const rows = await t.database.db.execute<{ name: string }>(
    sql`select tablename as name from pg_tables where schemaname = 'public' order by 1`,
  );
  tables = rowsOf<{ name: string }>(rows)
    .map((r) => r.name)
    .filter((name) => !CHANGES_ON_REFUSAL.has(name) && !name.startsWith("__drizzle"));
});

afterAll(async () => {
  console.info(`fuzz: ${sent} requests over ${operations.length} routes`);
  await t.close();
});

interface OpenApiOperation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  consumes?: string[];
}

/** The one multipart route (POST /api/profile/me) takes the profile's fields as text. */
const PROFILE_FORM_EXAMPLE = Object.fromEntries(
  Object.keys(ProfileFieldsSchema.shape).map((key) => [
    key,
    key === "languages" ? "[]" : key === "phoneNumber" ? "+1 555" : "Fuzz",
  ]),
);

interface JsonSchema {
  type?: string;
  format?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
}

/** A value the schema accepts, with real ids where a field names one. */
function example(schema: JsonSchema, name = ""): unknown {
  const choice = schema.anyOf ?? schema.oneOf;
  if (choice?.[0]) return example(choice[0], name);
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case "object":
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, value]) => [key, example(value, key)]),
      );
    case "array":
      return [];
    case "number":
    case "integer":
      return 1;
    case "boolean":
      return true;
    default:
      if (schema.format === "uuid") {
        return name === "userId" ? fixture.people.participant.userId : fixture.productId;
      }
      if (schema.format === "email") return "someone@example.com";
      return name === "sessionCode" ? fixture.code : "Fuzz";
  }
}

function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/** One md5 over every row of every table that a refused request must leave alone. */
async function checksum(): Promise<string> {
  // Mails an earlier request sends after its answer are that request's writes, not this one's.
  await t.app.idle();
  const parts = tables.map(
    (name) =>
      sql`select ${name} || ':' || coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as part from ${sql.identifier(name)} t`,
  );
  const rows = await t.database.db.execute<{ sum: string }>(
    sql`select md5(string_agg(part, ',')) as sum from (${sql.join(parts, sql` union all `)}) p`,
  );
  return rowsOf<{ sum: string }>(rows)[0]!.sum;
}

/** Each field gets these first (fast-check's examples), then generated values. */
const NASTY_FIRST: unknown[] = [
  "a\u0000b",
  "\u001b[31mred",
  "\u202Eevil",
  "x\udfffy",
  "\u200B\u200D",
  "👩‍👩‍👧‍👦",
  "x".repeat(100_000),
  1e308,
];

const nastyString = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "a\u0000b",
      "\u0000",
      "\u001b[31mred",
      "\u202Eevil",
      "\u2066x\u2069",
      "\u200B\u200D",
      "\ud800",
      "x\udfffy",
      "👩‍👩‍👧‍👦",
      "🏳️‍🌈",
      "",
      " ",
      "x".repeat(100_000),
      "../../etc/passwd",
      "' or 1=1 --",
      "%00",
      "null",
      "NaN",
    ),
  },
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ maxLength: 12 }),
);
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: nastyString },
  fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER, -1, 0, 0.001, 1.005, 99, 100),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(nastyString, { maxLength: 3 }),
  fc.dictionary(nastyString, nastyString, { maxKeys: 2 }),
);

function realValueOf(name: string): string {
  return (
    {
      id: fixture.sessionId,
      cartId: fixture.cartId,
      code: fixture.code,
      productId: fixture.productId,
      userId: fixture.people.participant.userId,
      file: "ann.svg",
    }[name] ?? "x"
  );
}

function realValue(name: string): fc.Arbitrary<string> {
  const known: Record<string, string[]> = {
    id: [fixture.sessionId, fixture.productId],
    cartId: [fixture.cartId],
    code: [fixture.code],
    productId: [fixture.productId],
    userId: [fixture.people.participant.userId],
    file: ["ann.svg"],
  };
  return fc.constantFrom(...(known[name] ?? ["x"]));
}

const callers = fc.constantFrom("creator", "stranger");

function pathAndQuery(op: Operation) {
  const path = fc.record(
    Object.fromEntries(
      op.pathParams.map((name) => [name, fc.oneof(realValue(name), nastyString)]),
    ) as Record<string, fc.Arbitrary<string>>,
  );
  const query = fc.dictionary(fc.constantFrom(...op.queryParams, "extra"), nastyString, {
    maxKeys: op.queryParams.length === 0 ? 1 : 3,
  });
  return { path, query };
}

/** Anything at all: random path, query and body (a valid one with fields replaced, or noise). */
function anyRequest(op: Operation) {
  const valid = op.example ?? {};
  const keys = [...Object.keys(valid), "extra", "__proto__"];
  const mutated = fc
    .tuple(
      fc.subarray(keys, { minLength: 1, maxLength: 2 }),
      fc.array(anyValue, { minLength: 2, maxLength: 2 }),
    )
    .map(([names, values]) => ({
      ...valid,
      ...Object.fromEntries(names.map((key, i) => [key, values[i]])),
    }));
  const body = fc.oneof(
    { weight: 3, arbitrary: mutated },
    { weight: 2, arbitrary: fc.dictionary(fc.constantFrom(...keys), anyValue, { maxKeys: 5 }) },
    anyValue,
  );
  return fc.record({ caller: callers, ...pathAndQuery(op), body });
}

/**
 * A valid request with one field replaced, so that the value reaches the handler instead of being
 * refused for another field: a body field, or (for bodiless routes) a path or query parameter.
 */
function oneFieldRequest(op: Operation, field: string, value: fc.Arbitrary<unknown>) {
  const valid = op.example ?? {};
  const path = Object.fromEntries(op.pathParams.map((name) => [name, realValueOf(name)]));
  return fc.record({
    caller: callers,
    path: fc.constant(path),
    query: fc.constant({}),
    body: value.map((v) => ({ ...valid, [field]: v })),
  });
}

/** Lone surrogates replaced by U+FFFD: a URL cannot carry them. */
const toWellFormed = (value: string) =>
  (value as unknown as { toWellFormed(): string }).toWellFormed();

function encodePath(op: Operation, values: Record<string, string>): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    // A lone surrogate cannot be percent-encoded; send its replacement rather than crash the test.
    const value = toWellFormed(values[name] ?? "");
    return encodeURIComponent(value === "" ? "x" : value);
  });
}

function multipartBody(body: unknown): { payload: string; boundary: string } {
  const boundary = "----cartner-fuzz";
  const fields = body && typeof body === "object" && !Array.isArray(body) ? body : { bio: body };
  const parts = Object.entries(fields).map(
    ([name, value]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${String(name).replace(/["\r\n]/g, "")}"\r\n\r\n${typeof value === "string" ? value : JSON.stringify(value)}\r\n`,
  );
  return { payload: `${parts.join("")}--${boundary}--\r\n`, boundary };
}

type Generated = { caller: string; path: Record<string, string>; query: object; body: unknown };

let before = "";

/** Sends one generated request and checks the three promises. */
async function send(op: Operation, { caller, path, query, body }: Generated): Promise<void> {
  const url = encodePath(op, path);
  const search = new URLSearchParams(
    Object.entries(query).map(([k, v]): [string, string] => [k, toWellFormed(String(v))]),
  ).toString();
  const headers: Record<string, string> = {
    authorization: `Bearer ${fixture.people[caller as "creator" | "stranger"].token}`,
  };
  let payload: string | undefined;
  if (op.method !== "GET" && op.method !== "DELETE") {
    if (op.multipart) {
      const form = multipartBody(body);
      payload = form.payload;
      headers["content-type"] = `multipart/form-data; boundary=${form.boundary}`;
    } else {
      payload = JSON.stringify(body);
      headers["content-type"] = "application/json";
    }
  }
  const started = performance.now();
  const res = await t.app.inject({
    method: op.method as "GET",
    url: search ? `${url}?${search}` : url,
    headers,
    ...(payload === undefined ? {} : { payload }),
  });
  sent += 1;
  const elapsed = performance.now() - started;
  const label = `${op.key} as ${caller}: ${res.statusCode} ${res.body.slice(0, 200)}`;
  expect(res.statusCode, label).toBeLessThan(500);
  expect(elapsed, label).toBeLessThan(SLOWEST_MS);
  const after = await checksum();
  if (res.statusCode >= 400) expect(after, `${label} changed the database`).toBe(before);
  before = after;
}

const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

it(
  "walks every route: no 5xx, no hang, nothing changed by a refusal",
  { timeout: 300_000 },
  async () => {
    expect(operations.length).toBeGreaterThan(30);
    before = await checksum();
    for (const op of operations) {
      for (const field of Object.keys(op.example ?? {})) {
        await fc.assert(
          fc.asyncProperty(oneFieldRequest(op, field, anyValue), (request) => send(op, request)),
          {
            numRuns: NASTY_FIRST.length + RUNS_PER_FIELD,
            examples: NASTY_FIRST.map((value) => [
              {
                caller: "creator",
                path: Object.fromEntries(op.pathParams.map((n) => [n, realValueOf(n)])),
                query: {},
                body: { ...op.example, [field]: value },
              },
            ]),
            seed,
          },
        );
      }
      await fc.assert(
        fc.asyncProperty(anyRequest(op), (request) => send(op, request)),
        {
          numRuns: RUNS_PER_ROUTE,
          seed,
        },
      );
    }
  },
);
