/**
 * GET /metrics: 404 while METRICS_TOKEN is unset, 401 without it, and with it the Prometheus text:
 * every request counted and timed under its route of the endpoint table (never the raw URL), and
 * Cartner's own metrics, each moved by what it counts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobQueueCounts } from "../../src/plugins/metrics-registry.ts";
import { createTestApp, sessionWithEveryRole, signUp, type TestApp } from "../helpers.ts";
import { listenForLive, signedIn, within } from "../live-peers.ts";

const TOKEN = "metrics-token-for-the-tests";

/** The sum of a metric's samples whose labels include all of `labels`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  let found = false;
  for (const line of text.split("\n")) {
    const match = /^([a-z_:]+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const labelText = match[2] ?? "";
    if (Object.entries(labels).every(([k, v]) => labelText.includes(`${k}="${v}"`))) {
      total += Number(match[3]);
      found = true;
    }
  }
  return found ? total : NaN;
}

describe("without METRICS_TOKEN", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it("answers 404, with or without a token", async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const res = await t.app.inject({ method: "GET", url: "/metrics", headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: "NOT_FOUND" });
    }
  });
});

describe("with METRICS_TOKEN", () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: TOKEN, PROCESS_CACHES: "true" } });
    base = await listenForLive(t);
  });
  afterAll(async () => t.close());

  const scrape = async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain/);
    return res.body;
  };

  it("answers 401 without the token, with a wrong one, or not as a bearer", async () => {
    for (const authorization of [
      undefined,
      "Bearer wrong-token",
      `Bearer ${TOKEN}x`,
      `Basic ${TOKEN}`,
      TOKEN,
    ]) {
      const res = await t.app.inject({
        method: "GET",
        url: "/metrics",
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: "UNAUTHORIZED" });
      expect(res.body).not.toContain("http_request");
    }
  });

  it("counts and times each request under its route of the endpoint table, never the raw URL", async () => {
    const f = await sessionWithEveryRole(t);
    const before = await scrape();
    const labels = { method: "GET", route: "/api/sessions/:id", status_code: "200" };
    const count = (text: string) =>
      sample(text, "http_request_duration_seconds_count", labels) || 0;
    for (let i = 0; i < 3; i++) {
      expect((await f.as.creator("GET", `/api/sessions/${f.sessionId}`)).statusCode).toBe(200);
    }
    await t.app.inject({ method: "GET", url: `/api/no-such-thing/${f.sessionId}` });
    await t.app.inject({ method: "GET", url: "/api/docs/json" }); // a route outside the table
    const after = await scrape();
    expect(count(after) - count(before)).toBe(3);
    expect(sample(after, "http_requests_total", labels)).toBeGreaterThanOrEqual(3);
    expect(sample(after, "http_request_duration_seconds_bucket", { ...labels, le: "+Inf" })).toBe(
      count(after),
    );
    expect(sample(after, "http_requests_total", { route: "unmatched", status_code: "404" })).toBe(
      1,
    );
    expect(sample(after, "http_requests_total", { route: "other" })).toBeGreaterThanOrEqual(1);
    // Bounded labels: no id of a session, whatever URL was asked.
    expect(after).not.toContain(f.sessionId);
    expect(after).not.toContain(f.code);
  });

  it("has each of Cartner's metrics, moved by what it counts", async () => {
    const f = await sessionWithEveryRole(t);
    const product = (await f.as.creator("GET", "/api/products")).json().products[0] as {
      _id: string;
    };
    const before = await scrape();
    const ann = await signedIn(base, f.people.creator.token);
    const during = await scrape();
    expect(sample(during, "cartner_live_sockets") - sample(before, "cartner_live_sockets")).toBe(1);

    const add = await f.as.participant("POST", `/api/carts/${f.cartId}/product`, {
      productId: product._id,
    });
    expect(add.statusCode).toBe(200);
    await within(
      ann.next((m) => m.type === "cart.updated"),
      2_000,
    );
    // A member reads again: the next answer is the remembered one, unless a later event of the
    // write (on PostgreSQL it comes over NOTIFY) emptied the cache between the two; read again then.
    const readHits = async () =>
      sample(await scrape(), "cartner_cache_hits_total", { cache: "reads" }) || 0;
    const hitsBefore = await readHits();
    await expect
      .poll(async () => {
        await f.as.viewer("GET", `/api/sessions/${f.sessionId}/cart`);
        return (await readHits()) - hitsBefore;
      })
      .toBeGreaterThanOrEqual(1);
    await signUp(t, "Mia"); // one code mailed
    const after = await scrape();
    ann.socket.close();

    const delta = (name: string, labels?: Record<string, string>) =>
      (sample(after, name, labels) || 0) - (sample(before, name, labels) || 0);
    expect(delta("cartner_live_delivery_seconds_count")).toBeGreaterThanOrEqual(1);
    expect(delta("cartner_group_commit_batch_size_count", { batch: "cart_writes" })).toBe(1);
    expect(delta("cartner_cache_hits_total", { cache: "reads" })).toBeGreaterThanOrEqual(1);
    expect(delta("cartner_cache_misses_total", { cache: "reads" })).toBeGreaterThanOrEqual(1);
    expect(delta("cartner_cache_hits_total", { cache: "auth_sessions" })).toBeGreaterThanOrEqual(1);
    expect(delta("cartner_mails_sent_total")).toBeGreaterThanOrEqual(1);
    expect(delta("cartner_mails_failed_total")).toBe(0);

    for (const name of [
      "cartner_live_sockets",
      "cartner_live_delivery_seconds",
      "cartner_group_commit_batch_size",
      "cartner_db_pool_total",
      "cartner_db_pool_idle",
      "cartner_db_pool_waiting",
      "cartner_cache_hits_total",
      "cartner_cache_misses_total",
      "cartner_mails_sent_total",
      "cartner_mails_failed_total",
      "cartner_job_queue_depth",
      "cartner_job_queue_failed",
      "cartner_job_failures_total",
    ]) {
      expect(after).toMatch(new RegExp(`^# TYPE ${name} `, "m"));
    }
    // The pool is PostgreSQL's; the embedded database has none.
    const pool = sample(after, "cartner_db_pool_total");
    if (t.database.kind === "postgres") expect(pool).toBeGreaterThan(0);
    else expect(pool).toBe(0);
  });

  it("reads the job queue's depth and failures from its table", async () => {
    const rows = await jobQueueCounts(t.database);
    expect(Array.isArray(rows)).toBe(true);
    for (const row of rows) {
      expect(typeof row.name).toBe("string");
      expect(Number.isInteger(row.depth) && Number.isInteger(row.failed)).toBe(true);
    }
  });
});
