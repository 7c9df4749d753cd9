/** What other features use of mail: the mailer and the shape of a mail. */
export type { Mail, Mailer } from "./mailer.ts";
