import type { Order } from "@cartner/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { sendJson } from "../../lib/encoded-body.ts";
import { route } from "../../lib/endpoint.ts";
import { adjust, dispute } from "./adjusting/adjust.ts";
import { setPayers } from "./adjusting/set-payers.ts";
import { balancesAnswer } from "./balances/balances.ts";
import { settlePlanAnswer } from "./balances/settle-plan.ts";
import { recordTransfer } from "./balances/transfers.ts";
import { checkout } from "./checkout/checkout.ts";
import { resendMail } from "./checkout/mail-jobs.ts";
import type { OrderDeps } from "./deps.ts";
import { confirm } from "./paying/confirm.ts";
import { markPaid } from "./paying/mark-paid.ts";
import { answerFor } from "./reading/kept.ts";
import { getOrder, orderEntries, orderPage, orderView } from "./reading/orders.ts";
import { orderSeenBy } from "./reading/private.ts";
import { renderReceipt } from "./reading/receipt.ts";
import { reveal } from "./adjusting/reveal.ts";

/** The caller and the request's Idempotency-Key, which the book keeps with what it writes. */
const actorOf = (request: FastifyRequest) => ({
  user: request.auth.user,
  key: request.idempotency?.key ?? null,
});

/** The caller's `{ order }` answer: as they see it (a line hidden from them is not in it). */
const answer = (request: FastifyRequest, order: Order) => ({
  order: orderSeenBy(order, request.auth.user._id),
});

/**
 * Checkout, orders and their receipts (in the reader's time zone: `timeZoneOf`), balances,
 * settling up.
 */
export async function orderRoutes(
  app: FastifyInstance,
  deps: OrderDeps & { timeZoneOf: (userId: string) => Promise<string> },
): Promise<void> {
  route(app, "POST /api/sessions/:id/checkout", async (request, reply) => {
    const placed = await checkout(deps, request.params.id, request.auth.user, {
      payers: request.body?.payers,
      overStock: request.body?.overStock,
      pending: request.body?.pending,
      key: request.idempotency?.key ?? null,
    });
    return reply.code(201).send({ ...placed, ...answer(request, placed.order) });
  });

  // Both answered with the orders' kept JSON (reading/kept.ts), checked against the contract when
  // it was made.
  route(app, "GET /api/orders", async (request, reply) =>
    sendJson(request, reply, await orderPage(deps, request.auth.user._id, request.query)),
  );

  route(app, "GET /api/orders/:id", async (request, reply) =>
    sendJson(
      request,
      reply,
      answerFor(
        await orderView(deps, request.params.id, request.auth.user._id),
        request.auth.user._id,
      ),
    ),
  );

  route(app, "GET /api/orders/:id/entries", async (request) =>
    orderEntries(deps, request.params.id, request.auth.user._id, request.query),
  );

  route(app, "GET /api/orders/:id/receipt.pdf", async (request, reply) => {
    const order = await getOrder(deps, request.params.id, request.auth.user._id);
    const timeZone = await deps.timeZoneOf(request.auth.user._id);
    const pdf = await renderReceipt(order, deps.clock.now(), deps.currency, timeZone);
    return reply
      .type("application/pdf")
      .header("content-disposition", `attachment; filename="cartner-${order.number}.pdf"`)
      .send(pdf);
  });

  route(app, "POST /api/orders/:id/paid", async (request) =>
    answer(request, await markPaid(deps, request.params.id, actorOf(request))),
  );

  route(app, "POST /api/orders/:id/confirm/:userId", async (request) =>
    answer(
      request,
      await confirm(
        deps,
        request.params.id,
        actorOf(request),
        request.params.userId,
        request.body?.how,
      ),
    ),
  );

  route(app, "POST /api/orders/:id/mail", async (request) =>
    answer(request, await resendMail(deps, request.params.id, request.auth.user._id)),
  );

  route(app, "POST /api/orders/:id/reveal", async (request) =>
    answer(request, await reveal(deps, request.params.id, request.auth.user)),
  );

  route(app, "POST /api/orders/:id/adjustments", async (request, reply) =>
    reply
      .code(201)
      .send(answer(request, await adjust(deps, request.params.id, actorOf(request), request.body))),
  );

  route(app, "POST /api/orders/:id/adjustments/:adjId/dispute", async (request) =>
    answer(
      request,
      await dispute(
        deps,
        request.params.id,
        request.auth.user,
        request.params.adjId,
        request.body.comment,
      ),
    ),
  );

  route(app, "PUT /api/orders/:id/payers", async (request) =>
    answer(request, await setPayers(deps, request.params.id, actorOf(request), request.body)),
  );

  // Both answered as kept per reader (balances/), checked against the contract when made.
  route(app, "GET /api/balances/settle-plan", async (request, reply) =>
    sendJson(
      request,
      reply,
      await settlePlanAnswer(deps, request.auth.user._id, request.query.with),
    ),
  );

  route(app, "POST /api/balances/transfers", async (request, reply) =>
    reply.code(201).send({ settled: await recordTransfer(deps, actorOf(request), request.body) }),
  );

  route(app, "GET /api/balances", async (request, reply) =>
    sendJson(request, reply, await balancesAnswer(deps, request.auth.user._id)),
  );
}
