/** A real SMTP server for tests (smtp-server, in this process) and readers of what it received. */
import type net from "node:net";
import { SMTPServer } from "smtp-server";

/** A real SMTP server on a fixed port that a test stops and starts; it keeps what it receives. */
export class MailSink {
  readonly received: Array<{ to: string[]; raw: string }> = [];
  private server: SMTPServer | undefined;
  port = 0;
  /** Mails to these addresses are refused once each with a temporary error (451). */
  readonly refuseOnce = new Set<string>();

  async start(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          const refused = session.envelope.rcptTo.find((r) => this.refuseOnce.has(r.address));
          if (refused) {
            this.refuseOnce.delete(refused.address);
            const error = Object.assign(new Error("Mailbox busy, try again later"), {
              responseCode: 451,
            });
            callback(error);
            return;
          }
          this.received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString("utf8"),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      const listening = server.listen(this.port, "127.0.0.1", () => resolve());
      listening.once("listening", () => {
        this.port = (listening.address() as net.AddressInfo).port;
      });
    });
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((r) => server.close(() => r()));
  }

  /** The code in the newest mail to this address (the text part is quoted-printable). */
  codeFor(email: string): string | undefined {
    const mail = this.received.findLast((m) => m.to.includes(email));
    const text = mail?.raw.replace(/=\r?\n/g, "");
    return text?.match(/Your code: (\d{6})/)?.[1];
  }
}

/** The plain-text part of a raw mail, quoted-printable decoded. */
export function textOf(raw: string): string {
  const part = /Content-Type: text\/plain[^]*?\r?\n\r?\n([^]*?)\r?\n--/i.exec(raw)?.[1] ?? raw;
  const qp = part.replace(/=\r?\n/g, "");
  const bytes = Buffer.from(
    qp.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    "latin1",
  );
  return bytes.toString("utf8").replace(/\r\n/g, "\n");
}

/** The subject of a raw mail (nodemailer encodes a non-ASCII one as UTF-8 words). */
export function subjectOf(raw: string): string {
  const header = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1] ?? "";
  return header
    .replace(/\r?\n[ \t]/g, " ")
    .replace(/=\?utf-8\?Q\?([^?]*)\?=\s*/gi, (_, q: string) =>
      Buffer.from(
        q
          .replace(/_/g, " ")
          .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        "latin1",
      ).toString("utf8"),
    )
    .trim();
}
