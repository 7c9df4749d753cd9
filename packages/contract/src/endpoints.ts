/**
 * The endpoint table: every API route with its method, path, schemas and who may call it
 * (docs/decisions/005). The server registers its routes from it, the web client's calls are typed
 * from it, the OpenAPI document is generated from it, and the authorization test walks it.
 *
 * Keys are "METHOD /api/path" with Fastify's `:param` syntax, so the web needs only the key at run
 * time and imports this module for its types alone: zod stays out of its first load.
 *
 * Each resource's routes are in a file of their own under endpoints/; this module assembles them,
 * in this order, into the one table.
 */
import type { z } from "zod";
import { authEndpoints } from "./endpoints/auth.ts";
import type { Endpoint, EndpointKeyPattern, HttpMethod } from "./endpoints/base.ts";
import { cartEndpoints } from "./endpoints/carts.ts";
import { catalogEndpoints } from "./endpoints/catalog.ts";
import { notificationEndpoints } from "./endpoints/notifications.ts";
import { deadlineEndpoints } from "./endpoints/deadlines.ts";
import { opsEndpoints } from "./endpoints/ops.ts";
import { orderEndpoints } from "./endpoints/orders.ts";
import { paymentEndpoints } from "./endpoints/payments.ts";
import { productEndpoints } from "./endpoints/products.ts";
import { profileEndpoints } from "./endpoints/profile.ts";
import { pushEndpoints } from "./endpoints/push.ts";
import { inviteLinkEndpoints, sessionEndpoints } from "./endpoints/sessions.ts";

export type { Access, Endpoint, ErrorStatus, HttpMethod, SuccessStatus } from "./endpoints/base.ts";
export { IdempotencyHeadersSchema } from "./endpoints/base.ts";
export {
  CartResponseSchema,
  CartsResponseSchema,
  CartWithWarningsSchema,
  CredentialsChangeResponseSchema,
  InvitesResponseSchema,
  JoinRequestsResponseSchema,
  MemberUpdateBodySchema,
  MessageAndCartSchema,
  MessageWithSessionIdSchema,
  MyJoinRequestsResponseSchema,
  ReadyBodySchema,
  SessionCreatedResponseSchema,
  SessionResponseSchema,
  SessionsResponseSchema,
  SessionSyncResponseSchema,
  SharedWithBodySchema,
  WarningSchema,
} from "./endpoints/envelopes.ts";
export { AvatarFileParamsSchema } from "./endpoints/profile.ts";

export const endpoints = {
  ...authEndpoints,
  ...productEndpoints,
  ...catalogEndpoints,
  ...sessionEndpoints,
  ...inviteLinkEndpoints,
  ...deadlineEndpoints,
  ...cartEndpoints,
  ...orderEndpoints,
  ...paymentEndpoints,
  ...profileEndpoints,
  ...notificationEndpoints,
  ...pushEndpoints,
  ...opsEndpoints,
} as const satisfies Partial<Record<EndpointKeyPattern, Endpoint>>;

export type Endpoints = typeof endpoints;
export type EndpointKey = keyof Endpoints;

type Defined<T> = Exclude<T, undefined>;
type SchemaIn<S> = S extends z.ZodType ? z.input<S> : never;
type SchemaOut<S> = S extends z.ZodType ? z.output<S> : never;
type Field<K extends EndpointKey, F extends string> = F extends keyof Endpoints[K]
  ? Endpoints[K][F]
  : undefined;

/** What a client sends: `params`, `query` and `body` exactly where the route has them. */
export type RequestOf<K extends EndpointKey> = (Field<K, "params"> extends z.ZodType
  ? { params: SchemaIn<Field<K, "params">> }
  : { params?: never }) &
  (Field<K, "query"> extends z.ZodType
    ? { query?: SchemaIn<Field<K, "query">> }
    : { query?: never }) &
  (Field<K, "body"> extends "multipart"
    ? { body: FormData }
    : Field<K, "body"> extends z.ZodType
      ? // A body the route may go without (NoBody) may be left out.
        undefined extends SchemaIn<Field<K, "body">>
        ? { body?: SchemaIn<Field<K, "body">> }
        : { body: SchemaIn<Field<K, "body">> }
      : { body?: never });

type Responses<K extends EndpointKey> = Endpoints[K]["responses"];
/** The route's first success answer, as the client receives it (204: undefined). */
export type ResponseOf<K extends EndpointKey> = SchemaOut<
  Defined<Responses<K>[Extract<keyof Responses<K>, 200 | 201 | 202 | 204>]>
>;

/** What a server handler receives, after validation (transforms applied). */
export interface ParsedRequestOf<K extends EndpointKey> {
  params: SchemaOut<Field<K, "params">>;
  query: SchemaOut<Field<K, "query">>;
  body: Field<K, "body"> extends z.ZodType ? SchemaOut<Field<K, "body">> : unknown;
}

/** "POST /api/carts/:cartId/product" -> ["POST", "/api/carts/:cartId/product"]. */
export function splitEndpointKey(key: EndpointKey): [HttpMethod, string] {
  const space = key.indexOf(" ");
  return [key.slice(0, space) as HttpMethod, key.slice(space + 1)];
}
