import { z } from "zod";
import { MessageResponseSchema } from "../auth.ts";
import { BUY_AGAIN_LIMIT_MAX, BuyAgainQuerySchema, BuyAgainResponseSchema } from "../buy-again.ts";
import { AddToCartBodySchema, LineQuerySchema, QuantityChangeBodySchema } from "../carts.ts";
import {
  FreeLineBodySchema,
  LineDecisionBodySchema,
  LinePatchBodySchema,
} from "../line-details.ts";
import { RESTORE_WINDOW_SECONDS } from "../constants.ts";
import { pageQuery } from "../pages.ts";
import { StapleBodySchema } from "../series.ts";
import { sessionErrors, type EndpointGroup } from "./base.ts";
import {
  CartResponseSchema,
  CartsPageSchema,
  CartsResponseSchema,
  CartWithWarningsSchema,
  MessageAndCartSchema,
  HiddenFromBodySchema,
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
    summary:
      "Carts of my ended sessions (read-only, prices frozen), newest first, a page at a time (cursor: the last cart's id)",
    access: "user",
    query: pageQuery("cart"),
    responses: { 200: CartsPageSchema },
    errors: [400],
  },
  "GET /api/carts/:cartId": {
    summary: "One cart (members)",
    access: "session.read",
    params: CartIdParams,
    responses: { 200: CartResponseSchema },
    errors: sessionErrors,
  },
  "GET /api/carts/:cartId/buy-again": {
    summary: `What the group bought before, most often first, at today's prices, leaving out what the cart holds and what is no longer sold (members; limit 1..${BUY_AGAIN_LIMIT_MAX})`,
    access: "cart.buyAgain",
    params: CartIdParams,
    query: BuyAgainQuerySchema,
    responses: { 200: BuyAgainResponseSchema },
    errors: [400, 404],
  },
  "POST /api/carts/:cartId/product": {
    summary: "Add a product to your own line (creator, participant)",
    access: "cart.add",
    params: CartIdParams,
    body: AddToCartBodySchema,
    responses: { 200: MessageAndCartSchema },
    errors: sessionErrors,
  },
  "POST /api/carts/:cartId/free-lines": {
    summary:
      "Add something not in the catalog by name, at an optional estimated unit price (creator, participant)",
    access: "cart.add",
    params: CartIdParams,
    body: FreeLineBodySchema,
    responses: { 200: MessageAndCartSchema },
    errors: sessionErrors,
  },
  "PATCH /api/carts/:cartId/lines/:lineId": {
    summary:
      "A line's note and substitute; a free line's name and estimated price too: its adder or the creator",
    access: "cart.changeOwnLine",
    params: z.strictObject({ cartId: z.uuid("Cart not found"), lineId: z.uuid("Line not found") }),
    body: LinePatchBodySchema,
    responses: { 200: CartResponseSchema },
    errors: sessionErrors,
  },
  "PATCH /api/carts/:cartId/quantity": {
    summary:
      "+1 or -1 on a line: your own, or any line for the creator (lineId; a free line is named by lineId alone)",
    access: "cart.changeOwnLine",
    params: CartIdParams,
    body: QuantityChangeBodySchema,
    responses: { 200: CartWithWarningsSchema },
    errors: sessionErrors,
  },
  "DELETE /api/carts/:cartId/product/:productId": {
    summary:
      "Remove a line: your own, or any line for the creator (lineId; a free line is named by lineId alone)",
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
  "PUT /api/carts/:cartId/lines/:lineId/hidden-from": {
    summary:
      "Hide a line from chosen members (a present; [] = seen by all): its adder or the creator; never from either of them",
    access: "cart.hideLine",
    params: z.strictObject({ cartId: z.uuid("Cart not found"), lineId: z.uuid("Line not found") }),
    body: HiddenFromBodySchema,
    responses: { 200: CartResponseSchema },
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
  "POST /api/carts/:cartId/lines/:lineId/approve": {
    summary:
      "Approve a line waiting for approval (its adder's budget asks first): it counts in the totals and the split from now on; with an optional message to its adder (creator, approvers). 409 when the line does not wait",
    access: "cart.approve",
    params: z.strictObject({ cartId: z.uuid("Cart not found"), lineId: z.uuid("Line not found") }),
    body: LineDecisionBodySchema,
    responses: { 200: CartResponseSchema },
    errors: sessionErrors,
  },
  "POST /api/carts/:cartId/lines/:lineId/decline": {
    summary:
      "Decline a line waiting for approval: it goes; with an optional message to its adder (creator, approvers). 409 when the line does not wait",
    access: "cart.approve",
    params: z.strictObject({ cartId: z.uuid("Cart not found"), lineId: z.uuid("Line not found") }),
    body: LineDecisionBodySchema,
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
  "POST /api/carts/:cartId/lines/:lineId/acknowledge-price": {
    summary:
      "Acknowledge a line's changed price: the cart stops showing the old price beside it (any member who pays)",
    access: "cart.acknowledgePrice",
    params: z.strictObject({ cartId: z.uuid("Cart not found"), lineId: z.uuid("Line not found") }),
    responses: { 200: CartResponseSchema },
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
