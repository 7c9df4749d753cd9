import type { Cart } from "@cartner/contract";
import type { FastifyPluginAsync } from "fastify";
import { route } from "../../lib/endpoint.ts";
import type { ReadCache } from "../../lib/read-cache.ts";
import type { CartService } from "./service.ts";

/**
 * Members whose share is now over their own budget: the write stands (budgets never block), and
 * its answer says so, so that member sees a toast.
 */
function warningsOf(cart: Cart) {
  const over = cart.split.filter((share) => share.overBudget);
  if (over.length === 0) return {};
  return {
    warnings: over.map((share) => ({
      code: "OVER_BUDGET" as const,
      userId: share.userId,
      message: `${share.name}'s share is over their budget.`,
    })),
  };
}

/** The Carts calls of the endpoint table, and the session-scoped cart reads. */
export const cartRoutes =
  (carts: CartService, cache: ReadCache): FastifyPluginAsync =>
  async (app) => {
    route(app, "GET /api/carts", async (request, reply) =>
      cache.read(request, reply, async () => ({
        carts: await carts.list(request.auth.user._id, "active"),
      })),
    );

    route(app, "GET /api/carts/history", async (request, reply) =>
      cache.read(request, reply, async () => ({
        carts: await carts.list(request.auth.user._id, "ended"),
      })),
    );

    route(app, "GET /api/carts/:cartId", async (request, reply) =>
      cache.read(request, reply, async () => ({
        cart: await carts.get(request.params.cartId, request.auth.user._id),
      })),
    );

    route(app, "POST /api/carts/:cartId/product", async (request) => {
      const cart = await carts.add(
        request.params.cartId,
        request.auth.user,
        request.body.productId,
        request.body.quantity,
      );
      return { message: "Added to cart", cart, ...warningsOf(cart) };
    });

    route(app, "PATCH /api/carts/:cartId/quantity", async (request) => {
      const cart = await carts.changeQuantity(
        request.params.cartId,
        request.auth.user,
        request.body.productId,
        request.body.change,
        request.body.lineId,
      );
      return { cart, ...warningsOf(cart) };
    });

    route(app, "PUT /api/carts/:cartId/lines/:lineId/shared-with", async (request) => {
      const cart = await carts.setSharedWith(
        request.params.cartId,
        request.auth.user,
        request.params.lineId,
        request.body.userIds,
      );
      return { cart, ...warningsOf(cart) };
    });

    route(app, "PUT /api/carts/:cartId/lines/:lineId/staple", async (request) => ({
      cart: await carts.setStaple(
        request.params.cartId,
        request.auth.user,
        request.params.lineId,
        request.body.staple,
      ),
    }));

    route(app, "DELETE /api/carts/:cartId/product/:productId", async (request) => ({
      cart: await carts.removeLine(
        request.params.cartId,
        request.auth.user,
        request.params.productId,
        request.query.lineId,
      ),
    }));

    route(app, "POST /api/carts/:cartId/lines/:lineId/restore", async (request) => {
      const cart = await carts.restoreLine(
        request.params.cartId,
        request.auth.user,
        request.params.lineId,
      );
      return { cart, ...warningsOf(cart) };
    });

    route(app, "DELETE /api/carts/:cartId/clear", async (request) => ({
      message: "Cart cleared",
      cart: await carts.clear(request.params.cartId, request.auth.user),
    }));

    route(app, "DELETE /api/carts/:cartId", async (request) =>
      carts.remove(request.params.cartId, request.auth.user),
    );

    route(app, "GET /api/sessions/:id/cart", async (request, reply) =>
      cache.read(request, reply, async () => ({
        cart: await carts.getBySession(request.params.id, request.auth.user._id),
      })),
    );

    route(app, "GET /api/sessions/:id/summary", async (request, reply) =>
      cache.read(request, reply, () => carts.summary(request.params.id, request.auth.user._id)),
    );
  };
