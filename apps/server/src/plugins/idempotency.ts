/**
 * The Idempotency-Key header, which lets an offline client replay its queued changes safely: a
 * signed-in user's POST, PUT, PATCH or DELETE with a key is done once; the same key with the same
 * request within 24 h replays the first answer (status and body), and with another request is 422.
 * Kept in the database, so it holds across instances and restarts.
 *
 * The store holds no secret: a request is kept only as an HMAC under a key derived from the server
 * secret (bodies hold passwords, and a plain hash would let a database copy test guesses), and a
 * success answer that carries a secret (`secretAnswer` in the endpoint table) is never kept: its
 * replay is 409 IDEMPOTENCY_ANSWER_NOT_KEPT, the write still done once.
 */
import crypto from "node:crypto";
import { ErrorCode, endpoints } from "@cartner/contract";
import { and, eq, lt } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../db/client.ts";
import { idempotencyKeys } from "../db/schema.ts";
import type { Clock } from "../lib/clock.ts";
import { AppError } from "../lib/errors.ts";

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A request still running with this key is waited for this long, then called in doubt. */
const WAIT_FOR_FIRST_MS = 10_000;
/** A first request older than this that never stored its answer died (kill -9) mid-way. */
const ABANDONED_MS = 60_000;
const KEY = /^[\x20-\x7e]{1,100}$/;
const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

declare module "fastify" {
  interface FastifyRequest {
    /** Set when this request is the first with its key: its answer is stored on the way out. */
    idempotency?: { userId: string; key: string };
  }
}

/** Routes of the endpoint table whose success answer carries a secret, as "METHOD /path". */
const SECRET_ANSWERS = new Set<string>(
  Object.entries(endpoints).flatMap(([key, endpoint]) =>
    "secretAnswer" in endpoint && endpoint.secretAnswer ? [key] : [],
  ),
);
const answerIsSecret = (request: FastifyRequest) =>
  SECRET_ANSWERS.has(`${request.method} ${request.routeOptions.url ?? ""}`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function installIdempotency(
  app: FastifyInstance,
  db: Db,
  clock: Clock,
  hashKey: Buffer,
): void {
  app.decorateRequest("idempotency", undefined);

  const requestHash = (request: FastifyRequest) =>
    crypto
      .createHmac("sha256", hashKey)
      .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
      .digest("hex");

  async function replay(
    request: FastifyRequest,
    reply: FastifyReply,
    userId: string,
    key: string,
    hash: string,
  ): Promise<FastifyReply | "run"> {
    const started = Date.now();
    for (;;) {
      const [row] = await db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
      if (!row) return "run"; // expired and removed meanwhile, or the first one failed: go
      if (clock.now().getTime() - row.createdAt.getTime() > IDEMPOTENCY_TTL_MS) {
        await db
          .delete(idempotencyKeys)
          .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
        return "run";
      }
      if (row.requestHash !== hash) {
        throw new AppError(
          422,
          ErrorCode.IDEMPOTENCY_MISMATCH,
          "This Idempotency-Key was used for a different request. Use a new key for a new change.",
        );
      }
      if (row.status !== null && row.status < 400 && answerIsSecret(request)) {
        throw new AppError(
          409,
          ErrorCode.IDEMPOTENCY_ANSWER_NOT_KEPT,
          "This request was already done with this Idempotency-Key. Its answer holds a secret, so it is not kept to send again: reload to see the result.",
        );
      }
      if (row.status !== null) {
        return reply
          .code(row.status)
          .header("idempotent-replayed", "true")
          .type(row.contentType ?? "application/json; charset=utf-8")
          .send(row.body ?? "");
      }
      const abandoned = clock.now().getTime() - row.createdAt.getTime() > ABANDONED_MS;
      if (abandoned || Date.now() - started > WAIT_FOR_FIRST_MS) {
        throw new AppError(
          409,
          ErrorCode.IDEMPOTENCY_IN_DOUBT,
          "The first request with this key did not finish; it may or may not have applied. Reload to see, and use a new key to try again.",
        );
      }
      await sleep(50);
    }
  }

  // After the route's authentication (its onRequest hook) and body validation. Reads and writes
  // without a key pass on synchronously (done, no promise): this runs on every request.
  app.addHook("preHandler", (request, reply, done) => {
    if (!WRITES.has(request.method) || request.headers["idempotency-key"] === undefined) {
      return done();
    }
    return claimKey(request, reply);
  });

  /** The key claimed for this request, or the first request's answer replayed. */
  async function claimKey(request: FastifyRequest, reply: FastifyReply) {
    const header = request.headers["idempotency-key"]!;
    const key = Array.isArray(header) ? header[0] : header;
    if (!key || !KEY.test(key)) {
      throw new AppError(
        400,
        ErrorCode.VALIDATION,
        "Idempotency-Key must be 1 to 100 printable characters",
        { fields: { "Idempotency-Key": "1 to 100 printable characters" } },
      );
    }
    // Public routes (sign-in steps) have no user to scope a key to; they ignore it.
    if (!request.auth) return;
    const userId = request.auth.user._id;
    const hash = requestHash(request);
    for (;;) {
      const inserted = await db
        .insert(idempotencyKeys)
        .values({ userId, key, requestHash: hash, createdAt: clock.now() })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (inserted.length > 0) {
        request.idempotency = { userId, key };
        return;
      }
      const answered = await replay(request, reply, userId, key, hash);
      if (answered !== "run") return answered;
    }
  }

  // The first request's answer, kept for replays; a server error is not an answer to keep (the
  // write did not happen), so the key is freed for the retry. A success that carries a secret
  // keeps its status only; refusals are the server's own messages and replay on every route.
  app.addHook("onSend", (request, reply, payload, done) => {
    const pending = request.idempotency;
    if (!pending) return done(null, payload);
    return keepAnswer(request, reply, payload, pending);
  });

  async function keepAnswer(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    pending: { userId: string; key: string },
  ) {
    const where = and(
      eq(idempotencyKeys.userId, pending.userId),
      eq(idempotencyKeys.key, pending.key),
    );
    if (reply.statusCode >= 500) {
      await db.delete(idempotencyKeys).where(where);
    } else if (reply.statusCode < 400 && answerIsSecret(request)) {
      await db
        .update(idempotencyKeys)
        .set({ status: reply.statusCode, contentType: null, body: null })
        .where(where);
    } else {
      await db
        .update(idempotencyKeys)
        .set({
          status: reply.statusCode,
          contentType: String(reply.getHeader("content-type") ?? ""),
          body:
            typeof payload === "string"
              ? payload
              : Buffer.isBuffer(payload)
                ? payload.toString("utf8")
                : "",
        })
        .where(where);
    }
    return payload;
  }

  // Keys older than 24 h go, once an hour (and at start).
  const sweep = () =>
    db
      .delete(idempotencyKeys)
      .where(lt(idempotencyKeys.createdAt, new Date(clock.now().getTime() - IDEMPOTENCY_TTL_MS)))
      .catch((error: unknown) => app.log.warn({ err: error }, "idempotency sweep failed"));
  const timer = setInterval(() => void sweep(), 60 * 60 * 1000);
  timer.unref();
  app.addHook("onReady", async () => {
    await sweep();
  });
  app.addHook("onClose", async () => clearInterval(timer));
}
