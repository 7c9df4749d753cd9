import { desc } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.ts";
import { devMails } from "../../db/schema.ts";
import { escapeHtml } from "../../lib/html.ts";

const SHOWN = 50;

const CSS = `body{font-family:system-ui,sans-serif;margin:0;background:#f8fafc;color:#0f172a}
main{max-width:760px;margin:0 auto;padding:24px}h1{font-size:1.5rem}
article{background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:16px;margin:12px 0}
.meta{color:#475569;font-size:.875rem}pre{white-space:pre-wrap;font:inherit;margin:8px 0 0}`;

/**
 * The development outbox: recent mails, newest first. Registered only when no SMTP_URL is set and
 * never in production. `Accept: application/json` returns the same list as JSON.
 */
export async function devMailboxRoutes(app: FastifyInstance, deps: { db: Db }): Promise<void> {
  app.get("/dev/mailbox.css", async (_request, reply) => reply.type("text/css").send(CSS));

  app.get("/dev/mailbox", async (request, reply) => {
    const mails = await deps.db
      .select()
      .from(devMails)
      .orderBy(desc(devMails.createdAt))
      .limit(SHOWN);
    reply.header("cache-control", "no-store");
    if (request.headers.accept?.includes("application/json")) {
      return {
        mails: mails.map((m) => ({
          to: m.recipient,
          subject: m.subject,
          text: m.text,
          createdAt: m.createdAt.toISOString(),
        })),
      };
    }
    const items = mails
      .map(
        (m) => `<article>
<h2 class="subject">${escapeHtml(m.subject)}</h2>
<p class="meta">To <span class="to">${escapeHtml(m.recipient)}</span> · <time datetime="${m.createdAt.toISOString()}">${escapeHtml(m.createdAt.toUTCString())}</time></p>
<pre>${escapeHtml(m.text)}</pre>
</article>`,
      )
      .join("\n");
    return reply.type("text/html").send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Cartner dev mailbox</title><link rel="stylesheet" href="/dev/mailbox.css"></head>
<body><main><h1>Dev mailbox</h1>
<p>Mails Cartner sent while no SMTP server is configured, newest first. Reload to see new ones.</p>
${items || "<p>No mails yet.</p>"}
</main></body></html>`);
  });
}
