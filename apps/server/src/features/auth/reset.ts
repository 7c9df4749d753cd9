/**
 * Password reset by a mailed code. Neither step tells whether an email has an account: the code
 * is mailed after the same answer, and a refused reset runs the same statements either way.
 */
import type { ResetPasswordBody } from "@cartner/contract";
import { and, eq, isNull } from "drizzle-orm";
import { authSessions, otpCodes, users } from "../../db/schema.ts";
import { accountWithEmail, claimCode, invalidCode, issueCode, spendCode } from "./codes.ts";
import type { AuthDeps } from "./deps.ts";
import { hashPassword, refuseCommonPassword } from "./passwords.ts";
import { disconnect, dropCachedSessions } from "./session-check.ts";

/**
 * Mails a reset code when the email has an account. The answer is the same, and as quick,
 * whether or not it has: the code is issued after the answer, and any refusal (the 60 s
 * interval, a mail failure) is only logged.
 */
export function forgotPassword(auth: AuthDeps, email: string, log: (error: unknown) => void) {
  const job = (async () => {
    const [user] = await auth.db.select().from(users).where(eq(users.email, email));
    if (!user || user.deletedAt) return;
    await issueCode(auth, user, "reset");
  })().catch(log);
  auth.trackJob?.(job);
  return {
    message:
      "If an account uses this email, we sent it a 6-digit code. Enter it with your new password.",
  };
}

/** Sets a new password with a reset code and signs out every device. */
export async function resetPassword(auth: AuthDeps, body: ResetPasswordBody, address: string) {
  const { db, clock } = auth;
  const now = clock.now();
  refuseCommonPassword(body.password);
  // Until a code matches, a known and an unknown email take the same statements and get the same
  // answers: 400, and 429 after ten refused tries from one address in an hour.
  const attempt = await claimCode(
    auth,
    { userId: accountWithEmail(body.email), email: body.email },
    "reset",
    body.code,
    address,
  );
  const [user] = await db.select().from(users).where(eq(users.id, attempt.userId));
  if (!user) throw invalidCode();
  const passwordHash = await hashPassword(body.password);
  await db.transaction(async (tx) => {
    await spendCode(tx, attempt.id, now);
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
  dropCachedSessions(auth.sessionCache, { userId: user.id });
  disconnect(auth.events, user.id);
  return { message: "Your password was changed and every device was signed out. Sign in again." };
}
