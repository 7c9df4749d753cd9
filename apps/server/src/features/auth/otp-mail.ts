import { OTP_TTL_MS, type OtpPurpose } from "@cartner/contract";
import { escapeHtml } from "../../lib/html.ts";
import type { Mail } from "../mail/index.ts";

const SUBJECTS: Record<OtpPurpose, string> = {
  register: "Welcome to Cartner: your verification code",
  login: "Your Cartner sign-in code",
  update: "Confirm the change to your Cartner account",
  reset: "Reset your Cartner password",
};

const INTROS: Record<OtpPurpose, string> = {
  register: "Welcome to Cartner! Enter this code to verify your email and finish signing up.",
  login: "Enter this code to finish signing in to Cartner.",
  update: "Enter this code to confirm the change to your Cartner account.",
  reset:
    "Someone asked to reset your Cartner password. Enter this code with your new password; every device will be signed out.",
};

/** The code mail: a plain-text part with the code, and HTML with every user value escaped. */
/** Said in the mail and the answer when a sign-up is started again for an unverified email. */
export const REPLACED_SIGNUP_NOTE =
  "This code replaces the one we sent earlier, which no longer works: the name and password entered with this latest sign-up are the ones that apply once it is entered.";

export function otpMail(
  to: string,
  name: string,
  code: string,
  purpose: OtpPurpose,
  note?: string,
): Mail {
  const minutes = OTP_TTL_MS / 60_000;
  const intro = note ? `${INTROS[purpose]} ${note}` : INTROS[purpose];
  const text = [
    `Hi ${name},`,
    "",
    intro,
    "",
    `Your code: ${code}`,
    "",
    `It expires in ${minutes} minutes and works once. If you did not ask for it, ignore this mail.`,
    "",
    "— Cartner",
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:sans-serif;color:#0f172a">
<p>Hi ${escapeHtml(name)},</p>
<p>${escapeHtml(intro)}</p>
<p style="font-size:28px;font-weight:700;letter-spacing:6px;color:#4f46e5">${escapeHtml(code)}</p>
<p>It expires in ${minutes} minutes and works once. If you did not ask for it, ignore this mail.</p>
<p>— Cartner</p>
</body></html>`;
  return { to, subject: SUBJECTS[purpose], text, html };
}

/** Sent to the old address when someone asks to move the account to a new one. */
export function emailChangeNotice(to: string, name: string, newEmail: string): Mail {
  const text = [
    `Hi ${name},`,
    "",
    `Someone asked to change the email of your Cartner account to ${newEmail}.`,
    "The change happens only once the code sent to that address is entered.",
    "If this was not you, sign in and change your password.",
    "",
    "— Cartner",
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:sans-serif;color:#0f172a">
<p>Hi ${escapeHtml(name)},</p>
<p>Someone asked to change the email of your Cartner account to <strong>${escapeHtml(newEmail)}</strong>.</p>
<p>The change happens only once the code sent to that address is entered. If this was not you, sign in and change your password.</p>
<p>— Cartner</p>
</body></html>`;
  return { to, subject: "Your Cartner email is about to change", text, html };
}
