import crypto from "node:crypto";
import {
  AUTH_SESSION_IDLE_MS,
  AUTH_SESSION_MAX_AGE_MS,
  ErrorCode,
  OTP_MAX_ATTEMPTS,
  OTP_MAX_FAILURES_PER_HOUR,
  OTP_RESEND_INTERVAL_MS,
  OTP_TTL_MS,
  type LoginBody,
  type OtpPurpose,
  type RegisterBody,
  type ResetPasswordBody,
  type User,
} from "@cartner/contract";
import { and, count, desc, eq, gt, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { authSessions, otpCodes, otpFailures, users } from "../../db/schema.ts";
import type { Clock } from "../../lib/clock.ts";
import type { EventBus } from "../realtime/bus.ts";
import { AppError, isUniqueViolation, tooManyRequests, unauthorized } from "../../lib/errors.ts";
import type { Mailer } from "../mail/mailer.ts";
import { emailChangeNotice, otpMail, REPLACED_SIGNUP_NOTE } from "./otp-mail.ts";
import { dummyPasswordHash, hashPassword, isCommonPassword, verifyPassword } from "./passwords.ts";
import type { TokenService } from "./tokens.ts";

const HOUR_MS = 60 * 60 * 1000;
/** How often a device's use of the API moves its "last seen" (one write per auth session). */
export const LAST_SEEN_EVERY_MS = 60_000;

export interface AuthDeps {
  db: Db;
  clock: Clock;
  tokens: TokenService;
  otpKey: Buffer;
  mailer: Mailer;
  /** How long a checked auth session may be trusted without reading its row again (0: never). */
  sessionCacheMs?: number;
  /**
   * Whether remembered auth sessions may be trusted now: not while this instance might miss
   * another's revocation (its LISTEN connection is down). Always, by default.
   */
  cacheUsable?: () => boolean;
  /** Tells every instance to close the live sockets of a revoked auth session at once. */
  events?: Pick<EventBus, "publish">;
  /** Told of work done after an answer (reset mails), so shutdown and tests can wait for it. */
  trackJob?: (job: Promise<unknown>) => void;
}

export interface AuthContext {
  user: User;
  sid: string;
}

const invalidCode = () =>
  new AppError(400, ErrorCode.INVALID_CODE, "Invalid or expired code", {
    fields: { code: "Invalid or expired code" },
  });

/**
 * Codes are kept apart by the endpoint that takes them: /auth/verify-otp takes sign-up, sign-in and
 * update codes, /auth/reset-password takes reset codes. Each kind has its own live code and its own
 * 60 s resend interval, so a reset request, which anyone can make, never delays, replaces or spends
 * a sign-in code.
 */
type CodeKind = "verify" | "reset";
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
interface Claimant {
  userId: string | SQL;
  email: string;
}
const accountWithEmail = (email: string): SQL =>
  sql`(select ${users.id} from ${users} where ${users.email} = ${email} and ${users.deletedAt} is null)`;
/** Compared against when there is no live code, so that a miss costs what a wrong code does. */
const NO_CODE_HASH = "0".repeat(64);

const toUser = (row: { id: string; name: string; email: string }): User => ({
  _id: row.id,
  name: row.name,
  email: row.email,
});

export function createAuthService(deps: AuthDeps) {
  const { db, clock, tokens, otpKey, mailer, sessionCacheMs = 0, events, trackJob } = deps;
  const cacheUsable = deps.cacheUsable ?? (() => true);

  /** Revoked auth sessions stop hearing live events now, not at the next 30 s check. */
  const disconnect = (userId: string, sid?: string) =>
    events?.publish({
      disconnect: { userId, ...(sid ? { sid } : {}), code: 4401, reason: "Your session has ended" },
    });
  const liveSessions = new Map<string, { context: AuthContext; until: number }>();
  /** Bumped by every drop: a session read before it is not remembered after it. */
  let liveEpoch = 0;
  /**
   * When each auth session's last seen was last known to be written (its row's value, or our own
   * write): a request moves it only once it is a minute old, so the devices list's "Last seen"
   * follows use without a write per request (decision 007 keeps requests off the database).
   */
  const seenAt = new Map<string, number>();

  /** Drops remembered auth sessions here: one (sid), a user's, or all (neither). */
  function dropCachedSessions(scope: { userId?: string | undefined; sid?: string | undefined }) {
    liveEpoch += 1;
    if (scope.sid) liveSessions.delete(scope.sid);
    else if (scope.userId) {
      for (const [sid, entry] of liveSessions) {
        if (entry.context.user._id === scope.userId) liveSessions.delete(sid);
      }
    } else liveSessions.clear();
  }

  const hashCode = (code: string) => crypto.createHmac("sha256", otpKey).update(code).digest("hex");
  const emailDigest = (email: string) =>
    crypto.createHmac("sha256", otpKey).update(`email:${email}`).digest("hex");

  /**
   * Issues a fresh code and mails it. The 60 s interval of the code's kind is claimed with one
   * conditional UPDATE, so concurrent requests cannot send two codes. If the mail cannot be sent,
   * the code and the claim are undone, so the user can simply try again once mail works.
   */
  async function issueCode(
    user: { id: string; name: string; email: string },
    purpose: OtpPurpose,
    options: { sendTo?: string; payload?: Record<string, string>; note?: string } = {},
  ): Promise<void> {
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
          codeHash: hashCode(code),
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

  async function register(body: RegisterBody) {
    if (isCommonPassword(body.password)) {
      throw new AppError(
        400,
        ErrorCode.WEAK_PASSWORD,
        "This password is too common. Choose another.",
        {
          fields: { password: "This password is too common. Choose another." },
        },
      );
    }
    const passwordHash = await hashPassword(body.password);
    const [existing] = await db.select().from(users).where(eq(users.email, body.email));
    let user: typeof users.$inferSelect;
    if (existing?.emailVerifiedAt) {
      throw new AppError(409, ErrorCode.EMAIL_TAKEN, "An account with this email already exists.", {
        fields: { email: "An account with this email already exists." },
      });
    } else if (existing) {
      // Never verified: a new sign-up may replace the pending name and password, but only with
      // a new code (the 60 s interval applies) and only once that code is entered: the details
      // travel in the code, so a refused or undelivered attempt changes nothing, and the code in
      // the earlier mail dies with the new one (issue 17).
      await issueCode({ ...existing, name: body.name }, "register", {
        payload: { newName: body.name, newPasswordHash: passwordHash },
        note: REPLACED_SIGNUP_NOTE,
      });
      return {
        message: `We sent a new 6-digit code to your email. ${REPLACED_SIGNUP_NOTE}`,
        userId: existing.id,
        user: toUser({ ...existing, name: body.name }),
      };
    } else {
      const rows = await db
        .insert(users)
        .values({ name: body.name, email: body.email, passwordHash })
        .onConflictDoNothing({ target: users.email })
        .returning();
      if (!rows[0]) {
        throw new AppError(
          409,
          ErrorCode.EMAIL_TAKEN,
          "An account with this email already exists.",
          {
            fields: { email: "An account with this email already exists." },
          },
        );
      }
      user = rows[0];
    }
    await issueCode(user, "register");
    return {
      message: "Account created. We sent a 6-digit code to your email.",
      userId: user.id,
      user: toUser(user),
    };
  }

  async function login(body: LoginBody) {
    const [user] = await db.select().from(users).where(eq(users.email, body.email));
    // Same work and the same answer whether the email is unknown or the password is wrong.
    const ok = await verifyPassword(
      user?.passwordHash ?? (await dummyPasswordHash()),
      body.password,
    );
    if (!user || !ok) {
      throw new AppError(401, ErrorCode.INVALID_CREDENTIALS, "Invalid email or password");
    }
    const sent = await liveSignInCode(user.id);
    if (sent) {
      // The back button or a second tab: the code in the inbox still works, send no other.
      return {
        message: "We sent you a code less than a minute ago: it still works. Enter it below.",
        userId: user.id,
        user: toUser(user),
        codeAlreadySent: true,
      };
    }
    try {
      await issueCode(user, "login");
    } catch (error) {
      // A concurrent sign-in sent the code a moment ago: the same answer as above.
      if (error instanceof AppError && error.status === 429 && (await liveSignInCode(user.id))) {
        return {
          message: "We sent you a code less than a minute ago: it still works. Enter it below.",
          userId: user.id,
          user: toUser(user),
          codeAlreadySent: true,
        };
      }
      throw error;
    }
    return {
      message: "We sent a 6-digit code to your email.",
      userId: user.id,
      user: toUser(user),
    };
  }

  /** A sign-in (or sign-up) code sent under 60 s ago and still usable, if there is one. */
  async function liveSignInCode(userId: string) {
    const now = clock.now();
    const [live] = await db
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

  /**
   * Mails a reset code when the email has an account. The answer is the same, and as quick,
   * whether or not it has: the code is issued after the answer, and any refusal (the 60 s
   * interval, a mail failure) is only logged.
   */
  function forgotPassword(email: string, log: (error: unknown) => void) {
    const job = (async () => {
      const [user] = await db.select().from(users).where(eq(users.email, email));
      if (!user || user.deletedAt) return;
      await issueCode(user, "reset");
    })().catch(log);
    trackJob?.(job);
    return {
      message:
        "If an account uses this email, we sent it a 6-digit code. Enter it with your new password.",
    };
  }

  /** Sets a new password with a reset code and signs out every device (DESIGN section 9). */
  async function resetPassword(body: ResetPasswordBody, address: string) {
    const now = clock.now();
    if (isCommonPassword(body.password)) {
      throw new AppError(
        400,
        ErrorCode.WEAK_PASSWORD,
        "This password is too common. Choose another.",
        { fields: { password: "This password is too common. Choose another." } },
      );
    }
    // Until a code matches, a known and an unknown email take the same statements and get the same
    // answers: 400, and 429 after ten refused tries from one address in an hour.
    const attempt = await claimCode(
      { userId: accountWithEmail(body.email), email: body.email },
      "reset",
      body.code,
      address,
    );
    const [user] = await db.select().from(users).where(eq(users.id, attempt.userId));
    if (!user) throw invalidCode();
    const passwordHash = await hashPassword(body.password);
    await db.transaction(async (tx) => {
      const [consumed] = await tx
        .update(otpCodes)
        .set({ consumedAt: now })
        .where(and(eq(otpCodes.id, attempt.id), isNull(otpCodes.consumedAt)))
        .returning({ id: otpCodes.id });
      if (!consumed) throw invalidCode();
      // Codes sent before the reset (a sign-in started with the old password, a pending change)
      // end with it, and nothing is left to wait for.
      await tx
        .update(otpCodes)
        .set({ consumedAt: now })
        .where(and(eq(otpCodes.userId, user.id), isNull(otpCodes.consumedAt)));
      await tx
        .update(users)
        .set({
          passwordHash,
          otpSentAt: null,
          resetOtpSentAt: null,
          updatedAt: now,
          emailVerifiedAt: user.emailVerifiedAt ?? now,
        })
        .where(eq(users.id, user.id));
      await tx
        .update(authSessions)
        .set({ revokedAt: now })
        .where(and(eq(authSessions.userId, user.id), isNull(authSessions.revokedAt)));
    });
    dropCachedSessions({ userId: user.id });
    disconnect(user.id);
    return { message: "Your password was changed and every device was signed out. Sign in again." };
  }

  /** The user's signed-in devices, newest first. */
  async function devices(context: AuthContext) {
    const now = clock.now().getTime();
    const rows = await db
      .select()
      .from(authSessions)
      .where(and(eq(authSessions.userId, context.user._id), isNull(authSessions.revokedAt)))
      .orderBy(desc(authSessions.lastSeenAt));
    return rows
      .filter(
        (r) =>
          now - r.lastSeenAt.getTime() <= AUTH_SESSION_IDLE_MS &&
          now - r.createdAt.getTime() <= AUTH_SESSION_MAX_AGE_MS,
      )
      .map((r) => ({
        _id: r.id,
        createdAt: r.createdAt.toISOString(),
        lastSeenAt: r.lastSeenAt.toISOString(),
        userAgent: r.userAgent,
        current: r.id === context.sid,
      }));
  }

  /** Signs one of the user's devices out (its token and live socket stop at once). */
  async function revokeDevice(context: AuthContext, sid: string) {
    const [revoked] = await db
      .update(authSessions)
      .set({ revokedAt: clock.now() })
      .where(
        and(
          eq(authSessions.id, sid),
          eq(authSessions.userId, context.user._id),
          isNull(authSessions.revokedAt),
        ),
      )
      .returning({ id: authSessions.id });
    if (!revoked) throw new AppError(404, ErrorCode.NOT_FOUND, "Device not found");
    dropCachedSessions({ sid });
    disconnect(context.user._id, sid);
  }

  async function resend(userId: string) {
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
    await issueCode(user, live.purpose, {
      ...(live.payload?.newEmail ? { sendTo: live.payload.newEmail } : {}),
      ...(live.payload ? { payload: live.payload } : {}),
    });
    return { message: "A new code is on its way." };
  }

  /** Refused codes of this account or email from this address in the last hour. */
  async function recentFailures(who: Claimant, address: string): Promise<number> {
    const since = new Date(clock.now().getTime() - HOUR_MS);
    const [row] = await db
      .select({ n: count() })
      .from(otpFailures)
      .where(
        and(
          or(
            eq(otpFailures.userId, who.userId),
            eq(otpFailures.emailDigest, emailDigest(who.email)),
          ),
          eq(otpFailures.address, address),
          gt(otpFailures.createdAt, since),
        ),
      );
    return row?.n ?? 0;
  }

  async function recordFailure(who: Claimant, address: string) {
    await db.insert(otpFailures).values({
      userId: who.userId,
      emailDigest: emailDigest(who.email),
      address,
      createdAt: clock.now(),
    });
  }

  /**
   * Claims one attempt at the live code of this kind and compares it; answers the code's row when
   * it matches. Throws the same "invalid or expired" for no code, a wrong one or a spent one.
   */
  async function claimCode(who: Claimant, kind: CodeKind, code: string, address: string) {
    const now = clock.now();
    if ((await recentFailures(who, address)) >= OTP_MAX_FAILURES_PER_HOUR) {
      throw tooManyRequests("Too many failed attempts. Please try again in an hour.", 3600);
    }
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
        Buffer.from(hashCode(code), "hex"),
      ) && attempt !== undefined;
    if (!attempt || !matches) {
      // At verify-otp only a wrong guess at a live code counts: a user id alone, with no code even
      // sent, must not run up anyone's count. At reset-password every refused try counts, since
      // counting only live codes would tell which emails have an account.
      if (attempt || kind === "reset") await recordFailure(who, address);
      throw invalidCode();
    }
    return attempt;
  }

  /**
   * Checks a code. Only a wrong guess at a live code counts as a failure, per account and client
   * address (issue 17: ten calls for someone else's id, with no code even sent, used to lock
   * them out for an hour); a code still dies after OTP_MAX_ATTEMPTS wrong tries.
   */
  async function verifyOtp(userId: string, code: string, address: string, userAgent = "") {
    const now = clock.now();
    const [user] = await db.select().from(users).where(eq(users.id, userId));
    if (!user) throw invalidCode();
    // A password reset code is never a sign-in code: it is not even compared here.
    const attempt = await claimCode(
      { userId: user.id, email: user.email },
      "verify",
      code,
      address,
    );

    let revokedSomeSessions = false;
    const result = await db.transaction(async (tx) => {
      // Single use: only one of two concurrent correct submissions gets through.
      const [consumed] = await tx
        .update(otpCodes)
        .set({ consumedAt: now })
        .where(and(eq(otpCodes.id, attempt.id), isNull(otpCodes.consumedAt)))
        .returning({ id: otpCodes.id });
      if (!consumed) throw invalidCode();

      // The code did its job: the next sign-in may send a new one at once (the 60 s interval
      // only protects inboxes from codes nobody has used).
      const changes: Partial<typeof users.$inferInsert> = {
        otpSentAt: null,
        emailVerifiedAt: user.emailVerifiedAt ?? now,
      };
      if (attempt.purpose === "register" && attempt.payload?.newPasswordHash) {
        // A sign-up started again before verifying: its details apply with its code.
        changes.name = attempt.payload.newName ?? user.name;
        changes.passwordHash = attempt.payload.newPasswordHash;
        changes.updatedAt = now;
      }
      if (attempt.purpose === "update") {
        // A confirmed credential change: apply it and sign out every other device.
        if (attempt.payload?.newEmail) changes.email = attempt.payload.newEmail;
        if (attempt.payload?.newPasswordHash)
          changes.passwordHash = attempt.payload.newPasswordHash;
        changes.updatedAt = now;
        await tx
          .update(authSessions)
          .set({ revokedAt: now })
          .where(and(eq(authSessions.userId, user.id), isNull(authSessions.revokedAt)));
        revokedSomeSessions = true;
      }
      const [updated] = await tx
        .update(users)
        .set(changes)
        .where(eq(users.id, user.id))
        .returning()
        .catch((error: unknown) => {
          if (isUniqueViolation(error, "users_email_unique")) {
            throw new AppError(
              409,
              ErrorCode.EMAIL_TAKEN,
              "That email now belongs to another account.",
            );
          }
          throw error;
        });
      const [session] = await tx
        .insert(authSessions)
        .values({ userId: user.id, createdAt: now, lastSeenAt: now, userAgent })
        .returning({ id: authSessions.id });
      const token = await tokens.sign({ userId: user.id, sid: session!.id });
      return {
        message:
          attempt.purpose === "update"
            ? "Your account was updated."
            : "Verified. Welcome to Cartner!",
        token,
        user: toUser(updated!),
        purpose: attempt.purpose,
      };
    });
    // Revoked sessions must not live on in this instance's memory, nor in anyone's live socket.
    if (revokedSomeSessions) {
      dropCachedSessions({ userId: user.id });
      disconnect(user.id);
    }
    return result;
  }

  /** Resolves a bearer token to its user; a revoked, idle or too old auth session is refused. */
  async function authenticate(token: string): Promise<AuthContext> {
    const claims = await tokens.verify(token);
    const caching = sessionCacheMs > 0 && cacheUsable();
    if (caching) {
      const cached = liveSessions.get(claims.sid);
      if (
        cached &&
        cached.until > clock.now().getTime() &&
        cached.context.user._id === claims.userId
      ) {
        await markSeen(claims.sid);
        return cached.context;
      }
    }
    const started = liveEpoch;
    const { context, lastSeenAt } = await readSession(claims.sid, claims.userId);
    // Not when a revocation arrived while the row was read: the row may predate it.
    if (caching && started === liveEpoch && cacheUsable()) {
      if (liveSessions.size > 10_000) liveSessions.clear();
      liveSessions.set(claims.sid, { context, until: clock.now().getTime() + sessionCacheMs });
    }
    if (lastSeenAt > (seenAt.get(claims.sid) ?? 0)) seenAt.set(claims.sid, lastSeenAt);
    await markSeen(claims.sid);
    return context;
  }

  /**
   * Moves the auth session's last seen to now when it is at least a minute old: one conditional
   * UPDATE a minute per device (it changes nothing if another instance wrote it meanwhile, or if
   * the session was revoked). The cached path comes here too, so a device served from the cache
   * is still seen.
   */
  async function markSeen(sid: string) {
    const now = clock.now();
    const known = seenAt.get(sid);
    if (known !== undefined && now.getTime() - known < LAST_SEEN_EVERY_MS) return;
    if (seenAt.size > 10_000) seenAt.clear();
    seenAt.set(sid, now.getTime());
    await db
      .update(authSessions)
      .set({ lastSeenAt: now })
      .where(
        and(
          eq(authSessions.id, sid),
          isNull(authSessions.revokedAt),
          lt(authSessions.lastSeenAt, new Date(now.getTime() - LAST_SEEN_EVERY_MS)),
        ),
      );
  }

  async function loadSession(sid: string, userId: string): Promise<AuthContext> {
    return (await readSession(sid, userId)).context;
  }

  async function readSession(
    sid: string,
    userId: string,
  ): Promise<{ context: AuthContext; lastSeenAt: number }> {
    const now = clock.now().getTime();
    const [row] = await db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        createdAt: authSessions.createdAt,
        lastSeenAt: authSessions.lastSeenAt,
        revokedAt: authSessions.revokedAt,
      })
      .from(authSessions)
      .innerJoin(users, eq(users.id, authSessions.userId))
      .where(and(eq(authSessions.id, sid), eq(authSessions.userId, userId)));
    if (
      !row ||
      row.revokedAt ||
      now - row.lastSeenAt.getTime() > AUTH_SESSION_IDLE_MS ||
      now - row.createdAt.getTime() > AUTH_SESSION_MAX_AGE_MS
    ) {
      throw unauthorized("Your session has ended. Please sign in again.");
    }
    return { context: { user: toUser(row), sid }, lastSeenAt: row.lastSeenAt.getTime() };
  }

  async function refresh(token: string) {
    const claims = await tokens.verify(token, { allowExpired: true });
    await loadSession(claims.sid, claims.userId);
    const now = clock.now();
    await db.update(authSessions).set({ lastSeenAt: now }).where(eq(authSessions.id, claims.sid));
    seenAt.set(claims.sid, now.getTime());
    return { token: await tokens.sign(claims) };
  }

  async function logout(context: AuthContext) {
    dropCachedSessions({ sid: context.sid });
    await db
      .update(authSessions)
      .set({ revokedAt: clock.now() })
      .where(and(eq(authSessions.id, context.sid), isNull(authSessions.revokedAt)));
    disconnect(context.user._id, context.sid);
  }

  /**
   * Starts an email and/or password change. Nothing changes until the code is verified (purpose
   * update); an email change's code goes to the new address, and the old address is told.
   */
  async function updateCredentials(
    userId: string,
    body: { email?: string | undefined; password?: string | undefined; currentPassword: string },
  ) {
    const [user] = await db.select().from(users).where(eq(users.id, userId));
    if (!user) throw unauthorized();
    if (!(await verifyPassword(user.passwordHash, body.currentPassword))) {
      throw new AppError(
        403,
        ErrorCode.INVALID_CREDENTIALS,
        "Your current password is incorrect.",
        {
          fields: { currentPassword: "Your current password is incorrect." },
        },
      );
    }
    const payload: Record<string, string> = {};
    if (body.password !== undefined) {
      if (isCommonPassword(body.password)) {
        throw new AppError(
          400,
          ErrorCode.WEAK_PASSWORD,
          "This password is too common. Choose another.",
          {
            fields: { password: "This password is too common. Choose another." },
          },
        );
      }
      payload.newPasswordHash = await hashPassword(body.password);
    }
    if (body.email !== undefined) {
      const email = body.email.toLowerCase();
      if (email === user.email) {
        throw new AppError(400, ErrorCode.VALIDATION, "That is already your email.", {
          fields: { email: "That is already your email." },
        });
      }
      const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
      if (taken) {
        throw new AppError(
          409,
          ErrorCode.EMAIL_TAKEN,
          "An account with this email already exists.",
          {
            fields: { email: "An account with this email already exists." },
          },
        );
      }
      payload.newEmail = email;
    }
    await issueCode(user, "update", {
      ...(payload.newEmail ? { sendTo: payload.newEmail } : {}),
      payload,
    });
    if (payload.newEmail) {
      // Tell the current address; a failure here must not undo the request.
      await mailer.send(emailChangeNotice(user.email, user.name, payload.newEmail)).catch(() => {});
    }
    return {
      message: payload.newEmail
        ? "OTP sent to your new email. Verify to complete the change."
        : "OTP sent to your email. Verify to complete password change.",
      userId: user.id,
    };
  }

  /**
   * A user's remembered sessions are out of date (their name changed, their account is gone): drop
   * them here, and on every other instance.
   */
  function forgetSessions(userId: string): void {
    dropCachedSessions({ userId });
    events?.publish({ invalidate: { auth: { userId } } });
  }

  return {
    register,
    login,
    forgotPassword,
    resetPassword,
    devices,
    revokeDevice,
    disconnect,
    resend,
    verifyOtp,
    authenticate,
    refresh,
    logout,
    updateCredentials,
    forgetSessions,
    dropCachedSessions,
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
