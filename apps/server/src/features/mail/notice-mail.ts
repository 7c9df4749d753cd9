/**
 * The texts of the mails the email channel sends: one notice (a reminder, a payment, a
 * membership change, a checkout without a share), and the digest of changes in a session. Plain
 * text and simple HTML, like the checkout mail (features/orders/checkout/mail.ts), each with an absolute
 * link into the app.
 */
import { escapeHtml } from "../../lib/html.ts";
import type { Mail } from "./mailer.ts";
import type { MailedNotification } from "./queue.ts";

const LINK_LABEL: Record<string, string> = {
  reminder: "Open the cart",
  checkout: "Open the order",
  payment: "Open the order",
  membership: "Open the session",
  changes: "Open the cart",
};

const page = (body: string) =>
  `<!doctype html><html><body style="font-family:sans-serif;color:#0f172a">\n${body}\n<p>— Cartner</p>\n</body></html>`;

/** One notification as a mail; `share` is the member's own money line when there is one. */
export function noticeMail(
  to: { name: string; email: string },
  notification: MailedNotification,
  link: string,
  share?: string,
): Mail {
  const label = LINK_LABEL[notification.kind] ?? "Open Cartner";
  const text = [
    `Hi ${to.name},`,
    "",
    notification.title,
    "",
    notification.body,
    ...(share ? ["", share] : []),
    "",
    `${label}: ${link}`,
    "",
    "— Cartner",
  ].join("\n");
  const html = page(`<p>Hi ${escapeHtml(to.name)},</p>
<p><strong>${escapeHtml(notification.title)}</strong></p>
<p>${escapeHtml(notification.body)}</p>${
    share
      ? `\n<p style="font-size:20px;font-weight:700;color:#4f46e5">${escapeHtml(share)}</p>`
      : ""
  }
<p><a href="${escapeHtml(link)}">${escapeHtml(label)}</a></p>`);
  return { to: to.email, subject: notification.title, text, html };
}

/** One change in a digest, with its absolute link. */
export interface DigestLine {
  title: string;
  body: string;
  link: string;
}

/** Lines shown in one digest; the rest are counted. */
export const DIGEST_SHOWN = 20;

/** The changes by others in one session since the member's last digest. */
export function digestMail(
  to: { name: string; email: string },
  session: { name: string; link: string },
  lines: DigestLine[],
  share?: string,
): Mail {
  const shown = lines.slice(0, DIGEST_SHOWN);
  const more = lines.length - shown.length;
  const count = lines.length === 1 ? "1 change" : `${lines.length} changes`;
  const describe = (line: DigestLine) => (line.body ? `${line.title}: ${line.body}` : line.title);
  const text = [
    `Hi ${to.name},`,
    "",
    `While you were away, others made ${count} in "${session.name}":`,
    "",
    ...shown.map((line) => `- ${describe(line)}`),
    ...(more > 0 ? [`- and ${more} more`] : []),
    ...(share ? ["", share] : []),
    "",
    `Open the cart: ${session.link}`,
    "",
    "— Cartner",
  ].join("\n");
  const html = page(`<p>Hi ${escapeHtml(to.name)},</p>
<p>While you were away, others made ${count} in “${escapeHtml(session.name)}”:</p>
<ul>
${shown.map((line) => `<li><a href="${escapeHtml(line.link)}">${escapeHtml(line.title)}</a>${line.body ? `: ${escapeHtml(line.body)}` : ""}</li>`).join("\n")}${more > 0 ? `\n<li>and ${more} more</li>` : ""}
</ul>${
    share
      ? `\n<p style="font-size:20px;font-weight:700;color:#4f46e5">${escapeHtml(share)}</p>`
      : ""
  }
<p><a href="${escapeHtml(session.link)}">Open the cart</a></p>`);
  return { to: to.email, subject: `${count} in ${session.name}`, text, html };
}
