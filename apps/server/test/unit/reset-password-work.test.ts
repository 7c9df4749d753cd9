/**
 * POST /api/auth/reset-password must not tell whether an email has an account, by its answer or by
 * its time: a refused try runs the same SQL statements, in the same order, for an unknown email as
 * for a known one (with or without a live reset code), and both compare a code hash. Timings
 * themselves are too noisy to assert on; the statements are what made them differ.
 */
import crypto from "node:crypto";
import fs from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { OTP_MAX_ATTEMPTS } from "@cartner/contract";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Db } from "../../src/db/client.ts";
import * as schema from "../../src/db/schema.ts";
import type { AuthDeps } from "../../src/features/auth/deps.ts";
import { forgotPassword, resetPassword } from "../../src/features/auth/reset.ts";
import { createAuthSessionCache } from "../../src/features/auth/session-check.ts";
import { register, verifyOtp } from "../../src/features/auth/sign-in.ts";
import { createTokenService } from "../../src/features/auth/tokens.ts";
import type { Mail } from "../../src/features/mail/mailer.ts";
import { PASSWORD, TestClock } from "../helpers.ts";

let client: PGlite;
let auth: AuthDeps;
const clock = new TestClock();
const mails: Mail[] = [];
const jobs: Promise<unknown>[] = [];
/** Every statement the service sends, as text (the parameters differ, the statements must not). */
let statements: string[] = [];

beforeAll(async () => {
  const dump = await fs.readFile(inject("pgliteTemplate"));
  client = await PGlite.create({ loadDataDir: new Blob([dump]) });
  const db = drizzle(client, {
    schema,
    logger: { logQuery: (query) => void statements.push(query) },
  }) as unknown as Db;
  auth = {
    db,
    clock,
    tokens: createTokenService(crypto.randomBytes(32), clock),
    otpKey: crypto.randomBytes(32),
    mailer: { send: async (mail) => void mails.push(mail), close: () => {} },
    sessionCache: createAuthSessionCache(),
    trackJob: (job) => void jobs.push(job),
  };
});
afterAll(async () => client.close());

const codeIn = (mail: Mail | undefined) => mail!.text.match(/Your code: (\d{6})/)![1]!;

/** The statements of one reset-password call that must be refused, and its error. */
async function refusedReset(email: string, code: string) {
  statements = [];
  const error: unknown = await resetPassword(
    auth,
    { email, code, password: "new-orchard-77" },
    "10.5.0.1",
  ).then(
    () => "accepted",
    (e: unknown) => e,
  );
  expect(error).toMatchObject({ status: 400, code: "INVALID_CODE" });
  return statements;
}

describe("a refused reset-password", () => {
  it("runs the same statements for an unknown email as for a known one, with or without a code", async () => {
    const email = "kim@example.com";
    const { userId } = await register(auth, { name: "Kim", email, password: PASSWORD });
    await verifyOtp(auth, userId, codeIn(mails.at(-1)), "10.5.0.9");
    forgotPassword(auth, email, () => {});
    await Promise.all(jobs);
    const wrong = codeIn(mails.at(-1)) === "000000" ? "111111" : "000000";

    const withCode = await refusedReset(email, wrong);
    const unknown = await refusedReset("nobody@example.com", wrong);
    expect(unknown).toEqual(withCode);
    for (let i = 1; i < OTP_MAX_ATTEMPTS; i++) await refusedReset(email, wrong);
    const deadCode = await refusedReset(email, wrong);
    expect(deadCode).toEqual(withCode);
  });
});
