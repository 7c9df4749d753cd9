import type { FastifyPluginAsync } from "fastify";
import { route } from "../../lib/endpoint.ts";
import type { OrderService } from "../orders/index.ts";
import { orderCsv, ordersCsv } from "./csv.ts";
import type { PaymentDetailsService } from "./details.ts";
import type { PayInfoReader } from "./pay-info.ts";

const CSV_TYPE = "text/csv; charset=utf-8";

/** The deployment's currency, payment details, what to pay, and the orders as CSV. */
export const paymentRoutes =
  (deps: {
    currency: string;
    details: PaymentDetailsService;
    payInfo: PayInfoReader;
    orders: Pick<OrderService, "list" | "get" | "entries">;
    /** The reader's time zone: the CSV's times are on their clock. */
    timeZoneOf: (userId: string) => Promise<string>;
  }): FastifyPluginAsync =>
  async (app) => {
    route(app, "GET /api/config", async () => ({ currency: deps.currency }));

    route(app, "GET /api/users/me/payment-details", async (request) => ({
      details: await deps.details.get(request.auth.user._id),
    }));

    route(app, "PUT /api/users/me/payment-details", async (request) => ({
      details: await deps.details.save(request.auth.user._id, request.body),
    }));

    route(app, "GET /api/orders/:id/pay-info", async (request) =>
      deps.payInfo(request.params.id, request.auth.user._id),
    );

    route(app, "GET /api/orders/export.csv", async (request, reply) => {
      const userId = request.auth.user._id;
      return reply
        .type(CSV_TYPE)
        .header("content-disposition", 'attachment; filename="cartner-orders.csv"')
        .send(ordersCsv(await deps.orders.list(userId), userId, await deps.timeZoneOf(userId)));
    });

    route(app, "GET /api/orders/:id/export.csv", async (request, reply) => {
      const userId = request.auth.user._id;
      const order = await deps.orders.get(request.params.id, userId);
      // The whole book: an order's entries are a few dozen.
      const { entries } = await deps.orders.entries(order._id, userId, { limit: 10_000 });
      return reply
        .type(CSV_TYPE)
        .header("content-disposition", `attachment; filename="cartner-${order.number}.csv"`)
        .send(orderCsv(order, entries, await deps.timeZoneOf(userId)));
    });
  };
