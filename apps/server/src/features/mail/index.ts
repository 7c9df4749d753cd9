/** What other features use of mail: the mailer, the shape of a mail, and the mail queue. */
export type { MailDeps } from "./deps.ts";
export type { Mail, Mailer } from "./mailer.ts";
export type { MailJobs, MailQueue, MailedNotification } from "./queue.ts";
