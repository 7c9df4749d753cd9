import { escapeHtml } from "../../../lib/html.ts";
import type { Mail } from "../../mail/index.ts";

/**
 * The invite by email, sent with every invite: to an account, a link to the sessions
 * page where the invite waits; to an address without one, a link to sign up with it, after which
 * the invite is waiting.
 */
export function inviteMail(options: {
  to: string;
  inviterName: string;
  sessionName: string;
  role: "participant" | "viewer";
  hasAccount: boolean;
  link: string;
}): Mail {
  const { to, inviterName, sessionName, role, hasAccount, link } = options;
  const what = role === "viewer" ? "to follow" : "to shop together in";
  const intro = `${inviterName} invited you ${what} “${sessionName}” on Cartner, as a ${role}.`;
  const action = hasAccount
    ? "Open your sessions to accept or decline it:"
    : "Create your Cartner account with this email address; the invite will be waiting for you:";
  const text = [
    intro,
    "",
    action,
    link,
    "",
    "If you were not expecting this, ignore this mail.",
    "",
    "— Cartner",
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:sans-serif;color:#0f172a">
<p>${escapeHtml(intro)}</p>
<p>${escapeHtml(action)}</p>
<p><a href="${escapeHtml(link)}" style="color:#4f46e5;font-weight:700">${escapeHtml(hasAccount ? "Open my sessions" : "Create my account")}</a></p>
<p>If you were not expecting this, ignore this mail.</p>
<p>— Cartner</p>
</body></html>`;
  return { to, subject: `${inviterName} invited you to “${sessionName}” on Cartner`, text, html };
}
