/**
 * What a member who owes on an order sees to pay its payee: the payee's details, what is still
 * owed, the order number as the reference, and the EPC QR payload for a SEPA transfer in EUR.
 * A member with a share who owes nothing gets the amount 0 and no details.
 */
import { fromCents, orderNumber, type PayInfo } from "@cartner/contract";
import { eq } from "drizzle-orm";
import { orders, users } from "../../db/schema.ts";
import { requireAllowed } from "../../lib/permissions.ts";
import { openOwed, payersOf, sharesOf } from "../orders/index.ts";
import type { PaymentDeps } from "./deps.ts";
import { detailsOf, NO_DETAILS } from "./details.ts";
import { epcPayload } from "./epc.ts";

/** What the member pays on the order, and to whom (404 to anyone without a part in it). */
export async function payInfo(
  deps: Pick<PaymentDeps, "db" | "currency">,
  orderId: string,
  userId: string,
): Promise<PayInfo> {
  const { db } = deps;
  const [row] = await db
    .select({
      number: orders.number,
      payeeId: orders.payeeId,
      payeeName: orders.payeeName,
      payeeDeletedAt: users.deletedAt,
    })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.payeeId))
    .where(eq(orders.id, orderId));
  const share = row && (await sharesOf(db, [orderId])).find((s) => s.userId === userId);
  const payer = row && (await payersOf(db, [orderId])).some((p) => p.userId === userId);
  // The payee, a payer, a sharer, or nobody (404): the table lets only those who owe see it.
  const role = !row
    ? null
    : row.payeeId === userId
      ? "payee"
      : payer
        ? "payer"
        : share
          ? "sharer"
          : "stranger";
  requireAllowed(role, "order.payInfo", "Order not found");
  // What is still open of the share towards the payee, by the same rule as balances: the rest
  // after an adjustment raised a paid share, only the payee's part when several paid the shop.
  // A credit (the payee owes the member back) is nothing to pay.
  const owedCents = row!.payeeId
    ? Math.max(0, await openOwed(db, orderId, userId, row!.payeeId))
    : 0;
  // Only a member who still owes learns how the payee is paid: once the share is settled (or
  // only a credit is left), the details are withheld. A deleted payee's went with the account.
  const details =
    owedCents > 0 && row!.payeeId && !row!.payeeDeletedAt
      ? await detailsOf(db, row!.payeeId)
      : NO_DETAILS;
  const reference = orderNumber(row!.number);
  const epcQr =
    deps.currency === "EUR" && details.iban
      ? epcPayload({
          name: details.accountName ?? row!.payeeName,
          iban: details.iban,
          amountCents: owedCents,
          reference,
        })
      : null;
  return {
    payee: { _id: row!.payeeId ?? "", name: row!.payeeName },
    details,
    amount: fromCents(owedCents),
    reference,
    epcQr,
  };
}
