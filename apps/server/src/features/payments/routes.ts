import type { FastifyInstance } from "fastify";
import { route } from "../../lib/endpoint.ts";
import { sendBody } from "../../lib/encoded-body.ts";
import { allOrdersAnswer, getOrder, orderEntries } from "../orders/index.ts";
import { orderCsv, ordersCsv } from "./csv.ts";
import type { PaymentDeps } from "./deps.ts";
import { getPaymentDetails, savePaymentDetails } from "./details.ts";
import { payInfo } from "./pay-info.ts";

const CSV_TYPE = "text/csv; charset=utf-8";

/**
 * The deployment's currency, payment details, what to pay, and the orders as CSV (on the
 * reader's clock: `timeZoneOf`).
 */
export async function paymentRoutes(
  app: FastifyInstance,
  deps: PaymentDeps & { timeZoneOf: (userId: string) => Promise<string> },
): Promise<void> {
  route(app, "GET /api/config", async () => ({ currency: deps.currency }));

  route(app, "GET /api/users/me/payment-details", async (request) => ({
    details: await getPaymentDetails(deps, request.auth.user._id),
  }));

  route(app, "PUT /api/users/me/payment-details", async (request) => ({
    details: await savePaymentDetails(deps, request.auth.user._id, request.body),
  }));

  route(app, "GET /api/orders/:id/pay-info", async (request) =>
    payInfo(deps, request.params.id, request.auth.user._id),
  );

  // Kept per reader while their orders are at the same versions and their time zone is the
  // same, compressed once (allOrdersAnswer reads the zone).
  route(app, "GET /api/orders/export.csv", async (request, reply) => {
    const userId = request.auth.user._id;
    const csv = await allOrdersAnswer(deps, userId, (orders, timeZone) =>
      ordersCsv(orders, userId, timeZone),
    );
    reply.header("content-disposition", 'attachment; filename="cartner-orders.csv"');
    return sendBody(request, reply, csv, CSV_TYPE);
  });

  route(app, "GET /api/orders/:id/export.csv", async (request, reply) => {
    const userId = request.auth.user._id;
    const order = await getOrder(deps, request.params.id, userId);
    // The whole book: an order's entries are a few dozen.
    const { entries } = await orderEntries(deps, order._id, userId, { limit: 10_000 });
    return reply
      .type(CSV_TYPE)
      .header("content-disposition", `attachment; filename="cartner-${order.number}.csv"`)
      .send(orderCsv(order, entries, await deps.timeZoneOf(userId)));
  });
}
