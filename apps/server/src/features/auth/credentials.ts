/** Changing a signed-in user's email or password: confirmed by a code before anything changes. */
import { ErrorCode } from "@cartner/contract";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema.ts";
import { AppError, unauthorized } from "../../lib/errors.ts";
import { issueCode } from "./codes.ts";
import type { AuthDeps } from "./deps.ts";
import { emailChangeNotice } from "./otp-mail.ts";
import { hashPassword, refuseCommonPassword, verifyPassword } from "./passwords.ts";
import { emailTaken } from "./sign-in.ts";

/**
 * Starts an email and/or password change. Nothing changes until the code is verified (purpose
 * update, applied by verifyOtp); an email change's code goes to the new address, and the old
 * address is told.
 */
export async function updateCredentials(
  auth: AuthDeps,
  userId: string,
  body: { email?: string | undefined; password?: string | undefined; currentPassword: string },
) {
  const { db, mailer } = auth;
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw unauthorized();
  if (!(await verifyPassword(user.passwordHash, body.currentPassword))) {
    throw new AppError(403, ErrorCode.INVALID_CREDENTIALS, "Your current password is incorrect.", {
      fields: { currentPassword: "Your current password is incorrect." },
    });
  }
  const payload: Record<string, string> = {};
  if (body.password !== undefined) {
    refuseCommonPassword(body.password);
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
    if (taken) throw emailTaken();
    payload.newEmail = email;
  }
  await issueCode(auth, user, "update", {
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
