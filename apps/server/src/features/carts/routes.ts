import {
  AddToCartBodySchema,
  ApiErrorSchema,
  CartSchema,
  LineQuerySchema,
  MessageResponseSchema,
  QuantityChangeBodySchema,
  SessionSummarySchema,
} from "@cartner/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ReadCache } from "../../lib/read-cache.ts";
import type { CartService } from "./service.ts";

const CartParams = z.strictObject({ cartId: z.uuid("Cart not found") });
const errors = {
  400: ApiErrorSchema,
  401: ApiErrorSchema,
  403: ApiErrorSchema,
  404: ApiErrorSchema,
  409: ApiErrorSchema,
};
const CartResponse = z.object({ cart: CartSchema });
const CartsResponse = z.object({ carts: z.array(CartSchema) });
const MessageAndCart = z.object({ message: z.string(), cart: CartSchema });
const tags = ["carts"];
const security = [{ bearer: [] }];

export const cartRoutes =
  (carts: CartService, cache: ReadCache): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook("onRequest", app.authenticate);

    app.get(
      "/",
      {
        schema: {
          tags,
          security,
          summary: "Carts of my active sessions, newest first",
          response: { 200: CartsResponse, 401: ApiErrorSchema },
        },
      },
      async (request) =>
        cache.read(request, async () => ({
          carts: await carts.list(request.auth.user._id, "active"),
        })),
    );

    app.get(
      "/history",
      {
        schema: {
          tags,
          security,
          summary: "Carts of my ended sessions (read-only, prices frozen)",
          response: { 200: CartsResponse, 401: ApiErrorSchema },
        },
      },
      async (request) =>
        cache.read(request, async () => ({
          carts: await carts.list(request.auth.user._id, "ended"),
        })),
    );

    app.get(
      "/:cartId",
      {
        schema: {
          tags,
          security,
          summary: "One cart (members)",
          params: CartParams,
          response: { 200: CartResponse, ...errors },
        },
      },
      async (request) =>
        cache.read(request, async () => ({
          cart: await carts.get(request.params.cartId, request.auth.user._id),
        })),
    );

    app.post(
      "/:cartId/product",
      {
        schema: {
          tags,
          security,
          summary: "Add a product to your own line (creator, participant)",
          params: CartParams,
          body: AddToCartBodySchema,
          response: { 200: MessageAndCart, ...errors },
        },
      },
      async (request) => ({
        message: "Added to cart",
        cart: await carts.add(
          request.params.cartId,
          request.auth.user,
          request.body.productId,
          request.body.quantity,
        ),
      }),
    );

    app.patch(
      "/:cartId/quantity",
      {
        schema: {
          tags,
          security,
          summary: "+1 or -1 on a line: your own, or any line for the creator (lineId)",
          params: CartParams,
          body: QuantityChangeBodySchema,
          response: { 200: CartResponse, ...errors },
        },
      },
      async (request) => ({
        cart: await carts.changeQuantity(
          request.params.cartId,
          request.auth.user,
          request.body.productId,
          request.body.change,
          request.body.lineId,
        ),
      }),
    );

    app.delete(
      "/:cartId/product/:productId",
      {
        schema: {
          tags,
          security,
          summary: "Remove a line: your own, or any line for the creator (lineId)",
          params: z.strictObject({
            cartId: z.uuid("Cart not found"),
            productId: z.uuid("Unknown product"),
          }),
          querystring: LineQuerySchema,
          response: { 200: CartResponse, ...errors },
        },
      },
      async (request) => ({
        cart: await carts.removeLine(
          request.params.cartId,
          request.auth.user,
          request.params.productId,
          request.query.lineId,
        ),
      }),
    );

    app.delete(
      "/:cartId/clear",
      {
        schema: {
          tags,
          security,
          summary: "Remove every line (creator)",
          params: CartParams,
          response: { 200: MessageAndCart, ...errors },
        },
      },
      async (request) => ({
        message: "Cart cleared",
        cart: await carts.clear(request.params.cartId, request.auth.user),
      }),
    );

    app.delete(
      "/:cartId",
      {
        schema: {
          tags,
          security,
          summary: "Delete a cart (creator): ends its session; the cart is kept as history",
          params: CartParams,
          response: { 200: MessageResponseSchema, ...errors },
        },
      },
      async (request) => carts.remove(request.params.cartId, request.auth.user),
    );
  };

/** The session-scoped cart reads (under /api/sessions). */
export const sessionCartRoutes =
  (carts: CartService, cache: ReadCache): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook("onRequest", app.authenticate);
    const params = z.strictObject({ id: z.uuid("Session not found") });

    app.get(
      "/:id/cart",
      {
        schema: {
          tags,
          security,
          summary: "The session's cart (members)",
          params,
          response: { 200: CartResponse, ...errors },
        },
      },
      async (request) =>
        cache.read(request, async () => ({
          cart: await carts.getBySession(request.params.id, request.auth.user._id),
        })),
    );

    app.get(
      "/:id/summary",
      {
        schema: {
          tags,
          security,
          summary: "Items, the per-member split, fees, tax and total (members)",
          params,
          response: { 200: SessionSummarySchema, ...errors },
        },
      },
      async (request) =>
        cache.read(request, () => carts.summary(request.params.id, request.auth.user._id)),
    );
  };
