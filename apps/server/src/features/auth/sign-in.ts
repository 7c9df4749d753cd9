/**
 * Signing up and in: register and login mail a code, verifyOtp takes it (and applies what it
 * carries: a restarted sign-up's details, a confirmed credential change) and opens an auth session
 * (a device) with its token; refresh renews the token while the session lives, logout ends it.
 */
import { ErrorCode, canonicalTimeZone, type LoginBody, type RegisterBody } from "@cartner/contract";
import { and, eq, isNull } from "drizzle-orm";
import { authSessions, users } from "../../db/schema.ts";
import { AppError, isUniqueViolation } from "../../lib/errors.ts";
import { claimCode, invalidCode, issueCode, liveSignInCode, spendCode } from "./codes.ts";
import { toUser, type AuthContext, type AuthDeps } from "./deps.ts";
import { REPLACED_SIGNUP_NOTE } from "./otp-mail.ts";
import {
  dummyPasswordHash,
  hashPassword,
  refuseCommonPassword,
  verifyPassword,
} from "./passwords.ts";
import { disconnect, dropCachedSessions, readSession } from "./session-check.ts";

export const emailTaken = () =>
  new AppError(409, ErrorCode.EMAIL_TAKEN, "An account with this email already exists.", {
    fields: { email: "An account with this email already exists." },
  });

export async function register(auth: AuthDeps, body: RegisterBody) {
  const { db } = auth;
  refuseCommonPassword(body.password);
  const passwordHash = await hashPassword(body.password);
  const [existing] = await db.select().from(users).where(eq(users.email, body.email));
  if (existing?.emailVerifiedAt) throw emailTaken();
  if (existing) {
    // Never verified: a new sign-up may replace the pending name and password, but only with
    // a new code (the 60 s interval applies) and only once that code is entered: the details
    // travel in the code, so a refused or undelivered attempt changes nothing, and the code in
    // the earlier mail dies with the new one.
    await issueCode(auth, { ...existing, name: body.name }, "register", {
      payload: { newName: body.name, newPasswordHash: passwordHash },
      note: REPLACED_SIGNUP_NOTE,
    });
    return {
      message: `We sent a new 6-digit code to your email. ${REPLACED_SIGNUP_NOTE}`,
      userId: existing.id,
      user: toUser({ ...existing, name: body.name }),
    };
  }
  const [user] = await db
    .insert(users)
    .values({ name: body.name, email: body.email, passwordHash })
    .onConflictDoNothing({ target: users.email })
    .returning();
  if (!user) throw emailTaken();
  await issueCode(auth, user, "register");
  return {
    message: "Account created. We sent a 6-digit code to your email.",
    userId: user.id,
    user: toUser(user),
  };
}

export async function login(auth: AuthDeps, body: LoginBody) {
  const [user] = await auth.db.select().from(users).where(eq(users.email, body.email));
  // Same work and the same answer whether the email is unknown or the password is wrong.
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), body.password);
  if (!user || !ok) {
    throw new AppError(401, ErrorCode.INVALID_CREDENTIALS, "Invalid email or password");
  }
  const codeAlreadySent = {
    message: "We sent you a code less than a minute ago: it still works. Enter it below.",
    userId: user.id,
    user: toUser(user),
    codeAlreadySent: true,
  };
  // The back button or a second tab: the code in the inbox still works, send no other.
  if (await liveSignInCode(auth, user.id)) return codeAlreadySent;
  try {
    await issueCode(auth, user, "login");
  } catch (error) {
    // A concurrent sign-in sent the code a moment ago: the same answer as above.
    if (
      error instanceof AppError &&
      error.status === 429 &&
      (await liveSignInCode(auth, user.id))
    ) {
      return codeAlreadySent;
    }
    throw error;
  }
  return {
    message: "We sent a 6-digit code to your email.",
    userId: user.id,
    user: toUser(user),
  };
}

/**
 * Checks a code. Only a wrong guess at a live code counts as a failure, per account and client
 * address, so calls with someone else's id, with no code even sent, cannot lock them out; a code
 * still dies after OTP_MAX_ATTEMPTS wrong tries.
 */
export async function verifyOtp(
  auth: AuthDeps,
  userId: string,
  code: string,
  address: string,
  userAgent = "",
  browserTimeZone?: string,
) {
  const { db, clock, tokens } = auth;
  const now = clock.now();
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw invalidCode();
  // A password reset code is never a sign-in code: it is not even compared here.
  const attempt = await claimCode(
    auth,
    { userId: user.id, email: user.email },
    "verify",
    code,
    address,
  );

  let revokedSomeSessions = false;
  const result = await db.transaction(async (tx) => {
    await spendCode(tx, attempt.id, now);

    // The code did its job: the next sign-in may send a new one at once (the 60 s interval
    // only protects inboxes from codes nobody has used).
    const changes: Partial<typeof users.$inferInsert> = {
      otpSentAt: null,
      emailVerifiedAt: user.emailVerifiedAt ?? now,
    };
    // The browser's zone is the account's until its owner chooses one (decision 040); a name
    // this server does not know changes nothing.
    const timeZone = browserTimeZone ? canonicalTimeZone(browserTimeZone) : null;
    if (timeZone && !user.timeZoneChosen) changes.timeZone = timeZone;
    if (attempt.purpose === "register" && attempt.payload?.newPasswordHash) {
      // A sign-up started again before verifying: its details apply with its code.
      changes.name = attempt.payload.newName ?? user.name;
      changes.passwordHash = attempt.payload.newPasswordHash;
      changes.updatedAt = now;
    }
    if (attempt.purpose === "update") {
      // A confirmed credential change: apply it and sign out every other device.
      if (attempt.payload?.newEmail) changes.email = attempt.payload.newEmail;
      if (attempt.payload?.newPasswordHash) changes.passwordHash = attempt.payload.newPasswordHash;
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
    dropCachedSessions(auth.sessionCache, { userId: user.id });
    disconnect(auth.events, user.id);
  }
  return result;
}

/** A new token for a live auth session, even when the old token has expired. */
export async function refresh(auth: AuthDeps, token: string) {
  const { db, clock, tokens, sessionCache } = auth;
  const claims = await tokens.verify(token, { allowExpired: true });
  await readSession(auth, claims.sid, claims.userId);
  const now = clock.now();
  await db.update(authSessions).set({ lastSeenAt: now }).where(eq(authSessions.id, claims.sid));
  sessionCache.seenAt.set(claims.sid, now.getTime());
  return { token: await tokens.sign(claims) };
}

export async function logout(auth: AuthDeps, context: AuthContext) {
  dropCachedSessions(auth.sessionCache, { sid: context.sid });
  await auth.db
    .update(authSessions)
    .set({ revokedAt: auth.clock.now() })
    .where(and(eq(authSessions.id, context.sid), isNull(authSessions.revokedAt)));
  disconnect(auth.events, context.user._id, context.sid);
}
