import type { FastifyPluginAsync } from "fastify";
import { route } from "../../lib/endpoint.ts";
import type { ReadCache } from "../../lib/read-cache.ts";
import type { CartService } from "./service.ts";

/** The Carts calls of the endpoint table, and the session-scoped cart reads. */
export const cartRoutes =
  (carts: CartService, cache: ReadCache): FastifyPluginAsync =>
  async (app) => {
    route(app, "GET /api/carts", async (request) =>
      cache.read(request, async () => ({
        carts: await carts.list(request.auth.user._id, "active"),
      })),
    );

    route(app, "GET /api/carts/history", async (request) =>
      cache.read(request, async () => ({
        carts: await carts.list(request.auth.user._id, "ended"),
      })),
    );

    route(app, "GET /api/carts/:cartId", async (request) =>
      cache.read(request, async () => ({
        cart: await carts.get(request.params.cartId, request.auth.user._id),
      })),
    );

    route(app, "POST /api/carts/:cartId/product", async (request) => ({
      message: "Added to cart",
      cart: await carts.add(
        request.params.cartId,
        request.auth.user,
        request.body.productId,
        request.body.quantity,
      ),
    }));

    route(app, "PATCH /api/carts/:cartId/quantity", async (request) => ({
      cart: await carts.changeQuantity(
        request.params.cartId,
        request.auth.user,
        request.body.productId,
        request.body.change,
        request.body.lineId,
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

    route(app, "DELETE /api/carts/:cartId/clear", async (request) => ({
      message: "Cart cleared",
      cart: await carts.clear(request.params.cartId, request.auth.user),
    }));

    route(app, "DELETE /api/carts/:cartId", async (request) =>
      carts.remove(request.params.cartId, request.auth.user),
    );

    route(app, "GET /api/sessions/:id/cart", async (request) =>
      cache.read(request, async () => ({
        cart: await carts.getBySession(request.params.id, request.auth.user._id),
      })),
    );

    route(app, "GET /api/sessions/:id/summary", async (request) =>
      cache.read(request, () => carts.summary(request.params.id, request.auth.user._id)),
    );
  };
