/**
 * Payment details: how each person likes to be paid. Only their owner reads and writes them
 * here; the members who owe them see them through pay-info.ts.
 */
import type { PaymentDetails, PaymentDetailsBody } from "@cartner/contract";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { paymentDetails } from "../../db/schema.ts";
import type { PaymentDeps } from "./deps.ts";

export const NO_DETAILS: PaymentDetails = {
  iban: null,
  accountName: null,
  payLink: null,
  note: null,
};

/** Someone's details as stored, every field null when they saved none. */
export async function detailsOf(db: Db, userId: string): Promise<PaymentDetails> {
  const [row] = await db
    .select({
      iban: paymentDetails.iban,
      accountName: paymentDetails.accountName,
      payLink: paymentDetails.payLink,
      note: paymentDetails.note,
    })
    .from(paymentDetails)
    .where(eq(paymentDetails.userId, userId));
  return row ?? NO_DETAILS;
}

/** The caller's own details. */
export async function getPaymentDetails(
  deps: Pick<PaymentDeps, "db">,
  userId: string,
): Promise<PaymentDetails> {
  return detailsOf(deps.db, userId);
}

/**
 * Replaces the whole set (the body is validated and normalised by the contract: a field left
 * out or empty is null). Nothing left: the row goes, so an empty set is no data kept.
 */
export async function savePaymentDetails(
  deps: Pick<PaymentDeps, "db" | "clock">,
  userId: string,
  body: { [K in keyof PaymentDetailsBody]?: string | null },
): Promise<PaymentDetails> {
  const { db, clock } = deps;
  const details: PaymentDetails = {
    iban: body.iban ?? null,
    accountName: body.accountName ?? null,
    payLink: body.payLink ?? null,
    note: body.note ?? null,
  };
  if (Object.values(details).every((value) => value === null)) {
    await db.delete(paymentDetails).where(eq(paymentDetails.userId, userId));
    return details;
  }
  const row = { ...details, updatedAt: clock.now() };
  await db
    .insert(paymentDetails)
    .values({ userId, ...row })
    .onConflictDoUpdate({ target: paymentDetails.userId, set: row });
  return details;
}
