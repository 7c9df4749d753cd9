/**
 * One-time codes: issuing and mailing them (with the resend wait of their kind), resending, and
 * checking a typed code (its attempts, and the hourly limit on refused codes). The flows that take
 * a code (sign-in, reset, credential changes) build on these.
 */
import crypto from "node:crypto";
import {
  ErrorCode,
  OTP_MAX_ATTEMPTS,
  OTP_MAX_FAILURES_PER_HOUR,
  OTP_RESEND_INTERVAL_MS,
  OTP_TTL_MS,
  type OtpPurpose,
} from "@cartner/contract";
import { and, desc, eq, gt, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { otpCodes, otpFailures, users } from "../../db/schema.ts";
import { createAttemptLimit } from "../../lib/attempt-limit.ts";
import { AppError, tooManyRequests } from "../../lib/errors.ts";
import type { AuthDeps } from "./deps.ts";
import { otpMail } from "./otp-mail.ts";

const HOUR_MS = 60 * 60 * 1000;

/** What the code functions use. */
export type CodeDeps = Pick<AuthDeps, "db" | "clock" | "otpKey" | "mailer">;

export const invalidCode = () =>
  new AppError(400, ErrorCode.INVALID_CODE, "Invalid or expired code", {
    fields: { code: "Invalid or expired code" },
  });

/**
 * Codes are kept apart by the endpoint that takes them: /auth/verify-otp takes sign-up, sign-in and
 * update codes, /auth/reset-password takes reset codes. Each kind has its own live code and its own
 * 60 s resend interval, so a reset request, which anyone can make, never delays, replaces or spends
 * a sign-in code.
 */
export type CodeKind = "verify" | "reset";
const kindOf = (purpose: OtpPurpose): CodeKind => (purpose === "reset" ? "reset" : "verify");
const PURPOSES: Record<CodeKind, OtpPurpose[]> = {
  verify: ["register", "login", "update"],
  reset: ["reset"],
};
/** The users column that holds the kind's resend interval. */
const SENT_AT = { verify: users.otpSentAt, reset: users.resetOtpSentAt } as const;
const sentAt = (kind: CodeKind, at: Date | null) =>
  kind === "reset" ? { resetOtpSentAt: at } : { otpSentAt: at };

/**
 * Whose code is tried: an account id, or at reset-password a subquery for the id of the account
 * with the typed email (null when there is none), so that a known and an unknown email go through
 * the same statements. Failures are counted under the account and under the email.
 */
export interface Claimant {
  userId: string | SQL;
  email: string;
}
export const accountWithEmail = (email: string): SQL =>
  sql`(select ${users.id} from ${users} where ${users.email} = ${email} and ${users.deletedAt} is null)`;
/** Compared against when there is no live code, so that a miss costs what a wrong code does. */
const NO_CODE_HASH = "0".repeat(64);

const hashCode = (otpKey: Buffer, code: string) =>
  crypto.createHmac("sha256", otpKey).update(code).digest("hex");
/** Typed emails are never stored: failures are counted under this HMAC of the email. */
const emailDigest = (otpKey: Buffer, email: string) =>
  crypto.createHmac("sha256", otpKey).update(`email:${email}`).digest("hex");

/**
 * Issues a fresh code and mails it. The 60 s interval of the code's kind is claimed with one
 * conditional UPDATE, so concurrent requests cannot send two codes. If the mail cannot be sent,
 * the code and the claim are undone, so the user can simply try again once mail works.
 */
export async function issueCode(
  deps: CodeDeps,
  user: { id: string; name: string; email: string },
  purpose: OtpPurpose,
  options: { sendTo?: string; payload?: Record<string, string>; note?: string } = {},
): Promise<void> {
  const { db, clock, otpKey, mailer } = deps;
  const now = clock.now();
  const kind = kindOf(purpose);
  const earliest = new Date(now.getTime() - OTP_RESEND_INTERVAL_MS);
  const [claimed] = await db
    .update(users)
    .set(sentAt(kind, now))
    .where(and(eq(users.id, user.id), or(isNull(SENT_AT[kind]), lt(SENT_AT[kind], earliest))))
    .returning({ id: users.id });
  if (!claimed) {
    const [row] = await db
      .select({ sentAt: SENT_AT[kind] })
      .from(users)
      .where(eq(users.id, user.id));
    const waitMs =
      (row?.sentAt?.getTime() ?? now.getTime()) + OTP_RESEND_INTERVAL_MS - now.getTime();
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    throw tooManyRequests(`Please wait ${seconds} s before requesting a new code.`, seconds);
  }

  const code = crypto.randomInt(0, 1_000_000).toString().padStart(6, "0");
  const { inserted, replaced } = await db.transaction(async (tx) => {
    // One live code per account and kind: a new one replaces any earlier one of its kind.
    const replaced = await tx
      .update(otpCodes)
      .set({ consumedAt: now })
      .where(
        and(
          eq(otpCodes.userId, user.id),
          inArray(otpCodes.purpose, PURPOSES[kind]),
          isNull(otpCodes.consumedAt),
        ),
      )
      .returning({ id: otpCodes.id });
    const [row] = await tx
      .insert(otpCodes)
      .values({
        userId: user.id,
        purpose,
        codeHash: hashCode(otpKey, code),
        expiresAt: new Date(now.getTime() + OTP_TTL_MS),
        payload: options.payload ?? null,
        createdAt: now,
      })
      .returning({ id: otpCodes.id });
    return { inserted: row!, replaced: replaced.map((r) => r.id) };
  });

  try {
    await mailer.send(
      otpMail(options.sendTo ?? user.email, user.name, code, purpose, options.note),
    );
  } catch {
    await db.delete(otpCodes).where(eq(otpCodes.id, inserted.id));
    // Nothing new reached the user, so the code already in their inbox stays valid.
    if (replaced.length > 0) {
      await db
        .update(otpCodes)
        .set({ consumedAt: null })
        .where(and(inArray(otpCodes.id, replaced), eq(otpCodes.consumedAt, now)));
    }
    // The claim only succeeded because no code went out in the last 60 s, so clearing it
    // restores exactly that state.
    await db.update(users).set(sentAt(kind, null)).where(eq(users.id, user.id));
    throw new AppError(
      503,
      ErrorCode.MAIL_FAILED,
      "We could not send your code by email right now. Please try again in a moment.",
    );
  }
}

/** A sign-in (or sign-up) code sent under 60 s ago and still usable, if there is one. */
export async function liveSignInCode(deps: Pick<AuthDeps, "db" | "clock">, userId: string) {
  const now = deps.clock.now();
  const [live] = await deps.db
    .select({ id: otpCodes.id })
    .from(otpCodes)
    .where(
      and(
        eq(otpCodes.userId, userId),
        inArray(otpCodes.purpose, ["login", "register"]),
        isNull(otpCodes.consumedAt),
        gt(otpCodes.expiresAt, now),
        lt(otpCodes.attempts, OTP_MAX_ATTEMPTS),
        gt(otpCodes.createdAt, new Date(now.getTime() - OTP_RESEND_INTERVAL_MS)),
      ),
    )
    .limit(1);
  return live !== undefined;
}

/** Sends a new code in place of the last sign-up, sign-in or update code. */
export async function resend(deps: CodeDeps, userId: string) {
  const { db } = deps;
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  const [live] = user
    ? await db
        .select()
        .from(otpCodes)
        .where(and(eq(otpCodes.userId, user.id), inArray(otpCodes.purpose, PURPOSES.verify)))
        .orderBy(desc(otpCodes.createdAt))
        .limit(1)
    : [];
  // Resending continues an existing sign-in (or change) on the code page; it never starts one,
  // and never sends a reset code (the reset page asks for one again).
  if (!user || !live) {
    throw new AppError(
      400,
      ErrorCode.INVALID_CODE,
      "There is no code to resend. Please sign in again.",
    );
  }
  await issueCode(deps, user, live.purpose, {
    ...(live.payload?.newEmail ? { sendTo: live.payload.newEmail } : {}),
    ...(live.payload ? { payload: live.payload } : {}),
  });
  return { message: "A new code is on its way." };
}

/**
 * Uses a matched code up, inside the transaction that acts on it. Single use: only one of two
 * concurrent correct submissions gets through; the other is told the code is invalid.
 */
export async function spendCode(tx: Tx, codeId: string, now: Date): Promise<void> {
  const [consumed] = await tx
    .update(otpCodes)
    .set({ consumedAt: now })
    .where(and(eq(otpCodes.id, codeId), isNull(otpCodes.consumedAt)))
    .returning({ id: otpCodes.id });
  if (!consumed) throw invalidCode();
}

/**
 * Claims one attempt at the live code of this kind and compares it; answers the code's row when
 * it matches. Throws the same "invalid or expired" for no code, a wrong one or a spent one, and
 * 429 once this account or email has had OTP_MAX_FAILURES_PER_HOUR codes refused from this
 * address in the last hour (both kinds count together).
 */
export async function claimCode(
  deps: CodeDeps,
  who: Claimant,
  kind: CodeKind,
  code: string,
  address: string,
) {
  const { db, clock, otpKey } = deps;
  const now = clock.now();
  const failures = createAttemptLimit({ db, clock, table: otpFailures, windowMs: HOUR_MS });
  const digest = emailDigest(otpKey, who.email);
  await failures.enforce(
    and(
      or(eq(otpFailures.userId, who.userId), eq(otpFailures.emailDigest, digest)),
      eq(otpFailures.address, address),
    ),
    OTP_MAX_FAILURES_PER_HOUR,
    "Too many failed attempts. Please try again in an hour.",
  );
  // Claim one attempt atomically: however many requests race, a code is evaluated at most
  // OTP_MAX_ATTEMPTS times.
  const [attempt] = await db
    .update(otpCodes)
    .set({ attempts: sql`${otpCodes.attempts} + 1` })
    .where(
      and(
        eq(otpCodes.userId, who.userId),
        inArray(otpCodes.purpose, PURPOSES[kind]),
        isNull(otpCodes.consumedAt),
        gt(otpCodes.expiresAt, now),
        lt(otpCodes.attempts, OTP_MAX_ATTEMPTS),
      ),
    )
    .returning();
  const matches =
    crypto.timingSafeEqual(
      Buffer.from(attempt?.codeHash ?? NO_CODE_HASH, "hex"),
      Buffer.from(hashCode(otpKey, code), "hex"),
    ) && attempt !== undefined;
  if (!attempt || !matches) {
    // At verify-otp only a wrong guess at a live code counts: a user id alone, with no code even
    // sent, must not run up anyone's count. At reset-password every refused try counts, since
    // counting only live codes would tell which emails have an account.
    if (attempt || kind === "reset") {
      await failures.record({ userId: who.userId, emailDigest: digest, address });
    }
    throw invalidCode();
  }
  return attempt;
}
