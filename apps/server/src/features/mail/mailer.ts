import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";
import type { Db } from "../../db/client.ts";
import { devMails } from "../../db/schema.ts";
import { meter } from "../../lib/metrics.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** Resolves once the mail is accepted for delivery; rejects when it could not be sent. */
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** The mailer, counting what it sent and what failed (metrics). */
export function countedMailer(mailer: Mailer): Mailer {
  return {
    async send(mail) {
      try {
        await mailer.send(mail);
      } catch (error) {
        meter.mail(false);
        throw error;
      }
      meter.mail(true);
    },
    close: () => mailer.close(),
  };
}

/** Mail over SMTP: a created object, since it holds the transport and its connections. */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const url = new URL(smtpUrl);
  const secure = url.protocol === "smtps:";
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: Number(url.port) || (secure ? 465 : 587),
    secure,
    ...(url.username
      ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
      : {}),
    // Fail fast when the mail server is down, so sign-in can say so instead of hanging.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 15_000,
  });
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
    close: () => transport.close(),
  };
}

/**
 * Without SMTP_URL (local development), mails are kept in the database and listed at /dev/mailbox,
 * and a log line says one arrived. Never used in production (config refuses to start without SMTP).
 * A Mailer like the SMTP one, so it is the same kind of created object the app sends through.
 */
export function createDevOutbox(db: Db, log: FastifyBaseLogger): Mailer {
  return {
    async send(mail) {
      await db.insert(devMails).values({
        recipient: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
      log.info({ subject: mail.subject }, `dev outbox: "${mail.subject}" — open /dev/mailbox`);
    },
    close: () => {},
  };
}
