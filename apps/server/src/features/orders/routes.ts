import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { Clock } from "../../lib/clock.ts";
import { route } from "../../lib/endpoint.ts";
import { renderReceipt } from "./reading/receipt.ts";
import type { OrderService } from "./service.ts";

/** The caller and the request's Idempotency-Key, which the book keeps with what it writes. */
const actorOf = (request: FastifyRequest) => ({
  user: request.auth.user,
  key: request.idempotency?.key ?? null,
});

/**
 * Checkout, orders and their receipts (in the reader's time zone: `timeZoneOf`), balances,
 * settling up.
 */
export const orderRoutes =
  (
    orders: OrderService,
    clock: Clock,
    currency: string,
    timeZoneOf: (userId: string) => Promise<string>,
  ): FastifyPluginAsync =>
  async (app) => {
    route(app, "POST /api/sessions/:id/checkout", async (request, reply) =>
      reply.code(201).send({
        order: await orders.checkout(request.params.id, request.auth.user, {
          payers: request.body?.payers,
          key: request.idempotency?.key ?? null,
        }),
      }),
    );

    route(app, "GET /api/orders", async (request) => ({
      orders: await orders.list(request.auth.user._id),
    }));

    route(app, "GET /api/orders/:id", async (request) => ({
      order: await orders.get(request.params.id, request.auth.user._id),
    }));

    route(app, "GET /api/orders/:id/entries", async (request) =>
      orders.entries(request.params.id, request.auth.user._id, request.query),
    );

    route(app, "GET /api/orders/:id/receipt.pdf", async (request, reply) => {
      const order = await orders.get(request.params.id, request.auth.user._id);
      const timeZone = await timeZoneOf(request.auth.user._id);
      const pdf = await renderReceipt(order, clock.now(), currency, timeZone);
      return reply
        .type("application/pdf")
        .header("content-disposition", `attachment; filename="cartner-${order.number}.pdf"`)
        .send(pdf);
    });

    route(app, "POST /api/orders/:id/paid", async (request) => ({
      order: await orders.markPaid(request.params.id, actorOf(request)),
    }));

    route(app, "POST /api/orders/:id/confirm/:userId", async (request) => ({
      order: await orders.confirm(
        request.params.id,
        actorOf(request),
        request.params.userId,
        request.body?.how,
      ),
    }));

    route(app, "POST /api/orders/:id/mail", async (request) => ({
      order: await orders.resendMail(request.params.id, request.auth.user._id),
    }));

    route(app, "POST /api/orders/:id/adjustments", async (request, reply) =>
      reply.code(201).send({
        order: await orders.adjust(request.params.id, actorOf(request), request.body),
      }),
    );

    route(app, "POST /api/orders/:id/adjustments/:adjId/dispute", async (request) => ({
      order: await orders.dispute(
        request.params.id,
        request.auth.user,
        request.params.adjId,
        request.body.comment,
      ),
    }));

    route(app, "PUT /api/orders/:id/payers", async (request) => ({
      order: await orders.setPayers(request.params.id, actorOf(request), request.body),
    }));

    route(app, "GET /api/balances/settle-plan", async (request) => ({
      transfers: await orders.settlePlan(request.auth.user._id, request.query.with),
    }));

    route(app, "POST /api/balances/transfers", async (request, reply) =>
      reply.code(201).send({ settled: await orders.transfer(actorOf(request), request.body) }),
    );

    route(app, "GET /api/balances", async (request) => ({
      balances: await orders.balances(request.auth.user._id),
    }));
  };
