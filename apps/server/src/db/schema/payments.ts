/** How each person likes to be paid: shown only to the members who owe them on an order. */
import { pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";

export const paymentDetails = pgTable("payment_details", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** Checked (ISO 13616) and stored without spaces, upper case. */
  iban: text("iban"),
  accountName: text("account_name"),
  /** An https URL (PayPal.me and the like). */
  payLink: text("pay_link"),
  note: text("note"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
