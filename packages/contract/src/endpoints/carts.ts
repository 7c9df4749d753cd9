import { z } from "zod";
import { MessageResponseSchema } from "../auth.ts";
import { AddToCartBodySchema, LineQuerySchema, QuantityChangeBodySchema } from "../carts.ts";
import { RESTORE_WINDOW_SECONDS } from "../constants.ts";
import { StapleBodySchema } from "../series.ts";
import { sessionErrors, type EndpointGroup } from "./base.ts";
import {
  CartResponseSchema,
  CartsResponseSchema,
  CartWithWarningsSchema,
  MessageAndCartSchema,
  SharedWithBodySchema,
} from "./envelopes.ts";

const CartIdParams = z.strictObject({ cartId: z.uuid("Cart not found") });
const CartLineParams = z.strictObject({
  cartId: z.uuid("Cart not found"),
  productId: z.uuid("Unknown product"),
});

/** Carts and their lines. */
export const cartEndpoints = {
  "GET /api/carts": {
    summary: "Carts of my active sessions, newest first",
    access: "user",
    responses: { 200: CartsResponseSchema },
    errors: [],
  },
  "GET /api/carts/history": {
    summary: "Carts of my ended sessions (read-only, prices frozen)",
    access: "user",
    responses: { 200: CartsResponseSchema },
    errors: [],
  },
  "GET /api/carts/:cartId": {
    summary: "One cart (members)",
    access: "session.read",
    params: CartIdParams,
    responses: { 200: CartResponseSchema },
    errors: sessionErrors,
  },
  "POST /api/carts/:cartId/product": {
    summary: "Add a product to your own line (creator, participant)",
    access: "cart.add",
    params: CartIdParams,
    body: AddToCartBodySchema,
    responses: { 200: MessageAndCartSchema },
    errors: sessionErrors,
  },
  "PATCH /api/carts/:cartId/quantity": {
    summary: "+1 or -1 on a line: your own, or any line for the creator (lineId)",
    access: "cart.changeOwnLine",
    params: CartIdParams,
    body: QuantityChangeBodySchema,
    responses: { 200: CartWithWarningsSchema },
    errors: sessionErrors,
  },
  "DELETE /api/carts/:cartId/product/:productId": {
    summary: "Remove a line: your own, or any line for the creator (lineId)",
    access: "cart.changeOwnLine",
    params: CartLineParams,
    query: LineQuerySchema,
    responses: { 200: CartResponseSchema },
    errors: sessionErrors,
  },
  "DELETE /api/carts/:cartId/clear": {
    summary: "Remove every line (creator)",
    access: "cart.clear",
    params: CartIdParams,
    responses: { 200: MessageAndCartSchema },
    errors: sessionErrors,
  },
  "PUT /api/carts/:cartId/lines/:lineId/shared-with": {
    summary:
      "Who shares a line in equal parts ([] = the session's policy): its adder or the creator",
    access: "cart.changeOwnLine",
    params: z.strictObject({ cartId: z.uuid("Cart not found"), lineId: z.uuid("Line not found") }),
    body: SharedWithBodySchema,
    responses: { 200: CartWithWarningsSchema },
    errors: sessionErrors,
  },
  "PUT /api/carts/:cartId/lines/:lineId/staple": {
    summary:
      "Mark a line as a staple, carried into the series' next session at that day's price: its adder or the creator",
    access: "cart.changeOwnLine",
    params: z.strictObject({ cartId: z.uuid("Cart not found"), lineId: z.uuid("Line not found") }),
    body: StapleBodySchema,
    responses: { 200: CartResponseSchema },
    errors: sessionErrors,
  },
  "POST /api/carts/:cartId/lines/:lineId/restore": {
    summary: `Undo a line's removal: it comes back as it was (adder, quantity, sharers); its remover, within ${RESTORE_WINDOW_SECONDS} s`,
    access: "cart.changeOwnLine",
    params: z.strictObject({ cartId: z.uuid("Cart not found"), lineId: z.uuid("Line not found") }),
    responses: { 200: CartWithWarningsSchema },
    errors: sessionErrors,
  },
  "DELETE /api/carts/:cartId": {
    summary: "Delete a cart (creator): ends its session; the cart is kept as history",
    access: "cart.delete",
    params: CartIdParams,
    responses: { 200: MessageResponseSchema },
    errors: sessionErrors,
  },
} as const satisfies EndpointGroup;
