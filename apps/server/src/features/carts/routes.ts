import type { Cart } from "@cartner/contract";
import type { FastifyInstance } from "fastify";
import { route } from "../../lib/endpoint.ts";
import type { ReadCache } from "../../lib/read-cache.ts";
import { buyAgain } from "./buy-again.ts";
import type { CartDeps } from "./deps.ts";
import { acknowledgePrice } from "./line-price.ts";
import { addFreeLine, editLine } from "./free-lines.ts";
import { decideLine } from "./line-approval.ts";
import { setHiddenFrom } from "./line-hiding.ts";
import { setSharedWith } from "./line-sharing.ts";
import { setStaple } from "./line-staple.ts";
import { addToCart, changeQuantity, clearCart, removeLine, restoreLine } from "./line-writes.ts";
import { cartHistory, cartSummary, getCart, getCartBySession, listCarts } from "./reads.ts";
import { deleteCart } from "./service.ts";

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
export async function cartRoutes(
  app: FastifyInstance,
  deps: CartDeps & { cache: ReadCache },
): Promise<void> {
  const { cache } = deps;
  route(app, "GET /api/carts", async (request, reply) =>
    cache.read(request, reply, async () => ({
      carts: await listCarts(deps, request.auth.user._id),
    })),
  );

  route(app, "GET /api/carts/history", async (request, reply) =>
    cache.read(request, reply, async () => cartHistory(deps, request.auth.user._id, request.query)),
  );

  route(app, "GET /api/carts/:cartId", async (request, reply) =>
    cache.read(request, reply, async () => ({
      cart: await getCart(deps, request.params.cartId, request.auth.user._id),
    })),
  );

  route(app, "GET /api/carts/:cartId/buy-again", async (request) => ({
    items: await buyAgain(deps, request.params.cartId, request.auth.user._id, request.query.limit),
  }));

  route(app, "POST /api/carts/:cartId/product", async (request) => {
    const cart = await addToCart(
      deps,
      request.params.cartId,
      request.auth.user,
      request.body.productId,
      request.body.quantity,
      request.body.hiddenFrom,
    );
    return { message: "Added to cart", cart, ...warningsOf(cart) };
  });

  route(app, "POST /api/carts/:cartId/free-lines", async (request) => {
    const cart = await addFreeLine(deps, request.params.cartId, request.auth.user, request.body);
    return { message: "Added to cart", cart, ...warningsOf(cart) };
  });

  route(app, "PATCH /api/carts/:cartId/lines/:lineId", async (request) => ({
    cart: await editLine(
      deps,
      request.params.cartId,
      request.auth.user,
      request.params.lineId,
      request.body,
    ),
  }));

  route(app, "PATCH /api/carts/:cartId/quantity", async (request) => {
    const cart = await changeQuantity(
      deps,
      request.params.cartId,
      request.auth.user,
      request.body.productId,
      request.body.change,
      request.body.lineId,
    );
    return { cart, ...warningsOf(cart) };
  });

  route(app, "PUT /api/carts/:cartId/lines/:lineId/shared-with", async (request) => {
    const cart = await setSharedWith(
      deps,
      request.params.cartId,
      request.auth.user,
      request.params.lineId,
      request.body.userIds,
    );
    return { cart, ...warningsOf(cart) };
  });

  route(app, "PUT /api/carts/:cartId/lines/:lineId/hidden-from", async (request) => ({
    cart: await setHiddenFrom(
      deps,
      request.params.cartId,
      request.auth.user,
      request.params.lineId,
      request.body.userIds,
    ),
  }));

  route(app, "PUT /api/carts/:cartId/lines/:lineId/staple", async (request) => ({
    cart: await setStaple(
      deps,
      request.params.cartId,
      request.auth.user,
      request.params.lineId,
      request.body.staple,
    ),
  }));

  route(app, "DELETE /api/carts/:cartId/product/:productId", async (request) => ({
    cart: await removeLine(
      deps,
      request.params.cartId,
      request.auth.user,
      request.params.productId,
      request.query.lineId,
    ),
  }));

  route(app, "POST /api/carts/:cartId/lines/:lineId/restore", async (request) => {
    const cart = await restoreLine(
      deps,
      request.params.cartId,
      request.auth.user,
      request.params.lineId,
    );
    return { cart, ...warningsOf(cart) };
  });

  for (const decision of ["approve", "decline"] as const) {
    route(app, `POST /api/carts/:cartId/lines/:lineId/${decision}`, async (request) => ({
      cart: await decideLine(
        deps,
        { cartId: request.params.cartId, lineId: request.params.lineId, user: request.auth.user },
        decision,
        request.body,
      ),
    }));
  }

  route(app, "POST /api/carts/:cartId/lines/:lineId/acknowledge-price", async (request) => ({
    cart: await acknowledgePrice(
      deps,
      request.params.cartId,
      request.auth.user,
      request.params.lineId,
    ),
  }));

  route(app, "DELETE /api/carts/:cartId/clear", async (request) => ({
    message: "Cart cleared",
    cart: await clearCart(deps, request.params.cartId, request.auth.user),
  }));

  route(app, "DELETE /api/carts/:cartId", async (request) =>
    deleteCart(deps, request.params.cartId, request.auth.user),
  );

  route(app, "GET /api/sessions/:id/cart", async (request, reply) =>
    cache.read(request, reply, async () => ({
      cart: await getCartBySession(deps, request.params.id, request.auth.user._id),
    })),
  );

  route(app, "GET /api/sessions/:id/summary", async (request, reply) =>
    cache.read(request, reply, () => cartSummary(deps, request.params.id, request.auth.user._id)),
  );
}
