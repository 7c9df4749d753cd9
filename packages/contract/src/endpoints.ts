/**
 * The endpoint table: every API route with its method, path, schemas and who may call it
 * (docs/decisions/005). The server registers its routes from it, the web client's calls are typed
 * from it, the OpenAPI document is generated from it, and the authorization test walks it.
 *
 * Keys are "METHOD /api/path" with Fastify's `:param` syntax, so the web needs only the key at run
 * time and imports this module for its types alone: zod stays out of its first load.
 */
import { z } from "zod";
import {
  AuthStartResponseSchema,
  DeleteAccountBodySchema,
  DevicesResponseSchema,
  ForgotPasswordBodySchema,
  ResetPasswordBodySchema,
  HealthResponseSchema,
  LoginBodySchema,
  MessageResponseSchema,
  RegisterBodySchema,
  ResendOtpBodySchema,
  TokenResponseSchema,
  ValidateTokenResponseSchema,
  VerifyOtpBodySchema,
  VerifyOtpResponseSchema,
} from "./auth.ts";
import {
  AddToCartBodySchema,
  CartSchema,
  LineQuerySchema,
  QuantityChangeBodySchema,
  SessionSummarySchema,
} from "./carts.ts";
import { RESTORE_WINDOW_SECONDS } from "./constants.ts";
import type { Action } from "./permissions.ts";
import {
  BalancesResponseSchema,
  ConfirmShareBodySchema,
  OrderResponseSchema,
  OrdersResponseSchema,
  UnsettledSharesErrorSchema,
} from "./orders.ts";
import {
  ProductListResponseSchema,
  ProductQuerySchema,
  ProductResponseSchema,
} from "./products.ts";
import { ProfileSchema, PublicUserSchema, UpdateCredentialsBodySchema } from "./profile.ts";
import { ActivityQuerySchema, ActivityResponseSchema } from "./activity.ts";
import {
  CreateInviteLinkBodySchema,
  CreateSessionBodySchema,
  InviteLinkSchema,
  InvitePreviewSchema,
  TransferBodySchema,
  InviteBodySchema,
  InviteSchema,
  JoinByCodeBodySchema,
  JoinDecisionBodySchema,
  JoinRequestSchema,
  MyJoinRequestSchema,
  SessionCodeBodySchema,
  SessionCodeSchema,
  SessionSchema,
  SplitPolicySchema,
  UpdateSessionBodySchema,
} from "./sessions.ts";

/**
 * Who may call a route: anyone ("public"), any signed-in user ("user"), a bearer token the route
 * checks itself ("token": refresh accepts an expired one), or a member whose role the permissions
 * table allows to do the action (the rest get the table's refusal).
 */
export type Access = "public" | "user" | "token" | Action;

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type SuccessStatus = 200 | 201 | 202 | 204 | 302;
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 429 | 503;

export interface Endpoint {
  summary: string;
  access: Access;
  params?: z.ZodType;
  query?: z.ZodType;
  /** A JSON body schema, or "multipart" for form uploads (validated field by field). */
  body?: z.ZodType | "multipart";
  /** Success answers by status: a JSON schema, or a described string/any for files. */
  responses: Partial<Record<SuccessStatus, z.ZodType>>;
  /** Error answers this route gives besides 401 for signed-in routes; each is an ApiError. */
  errors: readonly ErrorStatus[];
  /** Error answers that carry more than the error shape (each extends ApiError), by status. */
  errorBodies?: Partial<Record<ErrorStatus, z.ZodType>>;
  /**
   * Its success answer carries a secret (a sign-in token, an invite-link token). The
   * Idempotency-Key store never keeps such an answer: a replay of the success is 409
   * IDEMPOTENCY_ANSWER_NOT_KEPT (the write is still done once); a refusal replays as usual.
   */
  secretAnswer?: true;
}

// Path parameters. The messages are what a client sees for a malformed id (a 400 names the field).
const SessionIdParams = z.strictObject({ id: z.uuid("Session not found") });
const SessionCodeParams = z.strictObject({ code: SessionCodeSchema });
const CartIdParams = z.strictObject({ cartId: z.uuid("Cart not found") });
const CartLineParams = z.strictObject({
  cartId: z.uuid("Cart not found"),
  productId: z.uuid("Unknown product"),
});
/** Any string: a malformed product id is the same 404 as a missing one. */
const ProductIdParams = z.strictObject({ id: z.string().max(64) });
const ImageFileParams = z.strictObject({ file: z.string().max(200) });
export const AvatarFileParamsSchema = z.strictObject({
  file: z
    .string()
    .regex(/^.{1,200}\.svg$/s, "Ask for {seed}.svg")
    .transform((file) => file.slice(0, -".svg".length)),
});

// Answer envelopes.
export const SessionResponseSchema = z.object({ session: SessionSchema });
export const SessionsResponseSchema = z.object({ sessions: z.array(SessionSchema) });
export const SessionCreatedResponseSchema = z.object({
  message: z.string(),
  session: SessionSchema,
});
export const SessionSyncResponseSchema = z.object({
  sessions: z.array(SessionSchema),
  version: z.number().int(),
});
export const MessageWithSessionIdSchema = z.object({ message: z.string(), sessionId: z.string() });
export const InvitesResponseSchema = z.object({ invites: z.array(InviteSchema) });
export const JoinRequestsResponseSchema = z.object({ requests: z.array(JoinRequestSchema) });
export const MyJoinRequestsResponseSchema = z.object({ requests: z.array(MyJoinRequestSchema) });
export const CartResponseSchema = z.object({ cart: CartSchema });
export const CartsResponseSchema = z.object({ carts: z.array(CartSchema) });
/** Over-budget warnings ride on the answer of the write that caused them; they never block it. */
export const WarningSchema = z.object({
  code: z.literal("OVER_BUDGET"),
  userId: z.string(),
  message: z.string(),
});
export const MessageAndCartSchema = z.object({
  message: z.string(),
  cart: CartSchema,
  warnings: z.array(WarningSchema).optional(),
});
export const CartWithWarningsSchema = z.object({
  cart: CartSchema,
  warnings: z.array(WarningSchema).optional(),
});
export const SharedWithBodySchema = z.strictObject({
  userIds: z.array(z.uuid("Unknown member")).max(100),
});
export const MemberUpdateBodySchema = z
  .strictObject({
    role: z.enum(["participant", "viewer"]).optional(),
    budget: z
      .number()
      .min(0, "A budget cannot be negative")
      .max(1_000_000, "A budget is at most 1,000,000")
      .refine(
        (n) =>
          Number.isInteger(Math.round(n * 100)) && Math.abs(n * 100 - Math.round(n * 100)) < 1e-6,
        "At most two decimals",
      )
      .nullable()
      .optional(),
  })
  .refine((b) => b.role !== undefined || b.budget !== undefined, {
    message: "Send a role, a budget, or both",
    path: ["role"],
  });
export const ReadyBodySchema = z.strictObject({ ready: z.boolean() });
export const CredentialsChangeResponseSchema = z.object({
  message: z.string(),
  userId: z.string(),
});

const svg = z.string().describe("image/svg+xml");
const pdf = z.string().describe("application/pdf");
const OrderIdParams = z.strictObject({ id: z.uuid("Order not found") });
/** Any string up to 64: a malformed invite token is the same 404 as an unknown one. */
const InviteTokenParams = z.strictObject({ token: z.string().max(64, "Invite link not found") });
const InviteLinkResponseSchema = z.object({ link: InviteLinkSchema });
const InviteLinksResponseSchema = z.object({ links: z.array(InviteLinkSchema) });
const accountExport = z
  .record(z.string(), z.unknown())
  .describe("application/json attachment: your account, profile, sessions, carts and orders");
const sessionErrors = [400, 403, 404, 409] as const;

/**
 * The header every signed-in write accepts (API.md "Offline and activity"): documented here for
 * the OpenAPI document; the server's idempotency plugin checks its form (1..100 printable
 * characters, else 400) and does the rest. Other headers pass through untouched. Sign-in steps
 * and the token renewal (access "public" or "token") take no key.
 */
export const IdempotencyHeadersSchema = z.looseObject({
  "idempotency-key": z
    .string()
    .optional()
    .describe(
      "1 to 100 printable characters. The same key with the same request within 24 h replays the first answer (an answer that carries a secret is not kept: 409 IDEMPOTENCY_ANSWER_NOT_KEPT); with another request it is 422 IDEMPOTENCY_MISMATCH.",
    ),
});

export const endpoints = {
  // Auth (API.md "Auth")
  "POST /api/auth/register": {
    summary: "Create an account and mail a registration code",
    access: "public",
    body: RegisterBodySchema,
    responses: { 201: AuthStartResponseSchema },
    errors: [400, 401, 409, 429],
  },
  "POST /api/auth/login": {
    summary: "Check email and password and mail a sign-in code",
    access: "public",
    body: LoginBodySchema,
    responses: { 200: AuthStartResponseSchema },
    errors: [400, 401, 429],
  },
  "POST /api/auth/verify-otp": {
    summary: "Verify a code; returns a token and the code's purpose",
    access: "public",
    body: VerifyOtpBodySchema,
    responses: { 200: VerifyOtpResponseSchema },
    errors: [400, 401, 429],
    secretAnswer: true,
  },
  "POST /api/auth/resend-otp": {
    summary: "Send a new code (at most one a minute)",
    access: "public",
    body: ResendOtpBodySchema,
    responses: { 200: MessageResponseSchema },
    errors: [400, 401, 429],
  },
  "POST /api/auth/refresh-token": {
    summary: "Renew the token of a live auth session (also after its 15 minutes)",
    access: "token",
    responses: { 200: TokenResponseSchema },
    errors: [401],
    secretAnswer: true,
  },
  "GET /api/auth/validate-token": {
    summary: "Check the token; 401 when it is dead",
    access: "user",
    responses: { 200: ValidateTokenResponseSchema },
    errors: [],
  },
  "PATCH /api/auth/update-credentials": {
    summary: "Start an email and/or password change; it applies after verify-otp (purpose update)",
    access: "user",
    body: UpdateCredentialsBodySchema,
    responses: { 200: CredentialsChangeResponseSchema },
    errors: [400, 403, 409, 429],
  },
  "POST /api/auth/forgot-password": {
    summary: "Mail a password reset code; the same answer whether or not the account exists",
    access: "public",
    body: ForgotPasswordBodySchema,
    responses: { 200: MessageResponseSchema },
    errors: [400, 429],
  },
  "POST /api/auth/reset-password": {
    summary: "Set a new password with the mailed code; signs out every device",
    access: "public",
    body: ResetPasswordBodySchema,
    responses: { 200: MessageResponseSchema },
    errors: [400, 429],
  },
  "GET /api/auth/sessions": {
    summary: "Your signed-in devices",
    access: "user",
    responses: { 200: DevicesResponseSchema },
    errors: [],
  },
  "DELETE /api/auth/sessions/:id": {
    summary: "Sign one of your devices out",
    access: "user",
    params: z.strictObject({ id: z.uuid("Device not found") }),
    responses: { 204: z.null().describe("No content") },
    errors: [400, 404],
  },
  "POST /api/auth/logout": {
    summary: "Revoke this auth session",
    access: "user",
    responses: { 204: z.null().describe("Signed out") },
    errors: [],
  },
  "GET /api/conhealth": {
    summary: "Liveness and database check (for load balancers)",
    access: "public",
    responses: { 200: HealthResponseSchema },
    errors: [503],
  },

  // Products
  "GET /api/products": {
    summary: "List products: search, filter by category and price, sort, page",
    access: "user",
    query: ProductQuerySchema,
    responses: { 200: ProductListResponseSchema },
    errors: [400],
  },
  "GET /api/products/:id": {
    summary: "One product",
    access: "user",
    params: ProductIdParams,
    responses: { 200: ProductResponseSchema },
    errors: [404],
  },
  "GET /api/catalog/images/:file": {
    summary: "A product image (public; the file name changes when the image does)",
    access: "public",
    params: ImageFileParams,
    responses: { 200: svg },
    errors: [404],
  },

  // Sessions
  "POST /api/sessions": {
    summary: "Create a session (the caller is its creator); its cart is created with it",
    access: "user",
    body: CreateSessionBodySchema,
    responses: { 201: SessionCreatedResponseSchema },
    errors: [400],
  },
  "GET /api/sessions/my": {
    summary: "My sessions, active and ended, newest first",
    access: "user",
    responses: { 200: SessionsResponseSchema },
    errors: [],
  },
  "GET /api/sessions/mysessions/actives": {
    summary: "My active sessions, newest first",
    access: "user",
    responses: { 200: SessionsResponseSchema },
    errors: [],
  },
  "GET /api/sessions/sync": {
    summary: "My active sessions and a version that changes whenever any of them does",
    access: "user",
    responses: { 200: SessionSyncResponseSchema },
    errors: [],
  },
  "GET /api/sessions/myinvites": {
    summary: "Invites waiting for me",
    access: "user",
    responses: { 200: InvitesResponseSchema },
    errors: [],
  },
  "GET /api/sessions/join-requests/mine": {
    summary: "My own join requests still waiting for the creator, newest first",
    access: "user",
    responses: { 200: MyJoinRequestsResponseSchema },
    errors: [],
  },
  "GET /api/sessions/:id": {
    summary: "One session (members only)",
    access: "session.read",
    params: SessionIdParams,
    responses: { 200: SessionResponseSchema },
    errors: sessionErrors,
  },
  "PATCH /api/sessions/:id": {
    summary: "Edit a session (creator)",
    access: "session.edit",
    params: SessionIdParams,
    body: UpdateSessionBodySchema,
    responses: { 200: SessionResponseSchema },
    errors: sessionErrors,
  },
  "PUT /api/sessions/:id/split-policy": {
    summary: "How the cart's cost is split: by adder, equally or by weights; fees (creator)",
    access: "session.splitPolicy",
    params: SessionIdParams,
    body: SplitPolicySchema,
    responses: { 200: SessionResponseSchema },
    errors: sessionErrors,
  },
  "PATCH /api/sessions/:id/members/:userId": {
    summary: "A member's role or budget (creator); any member may set their own budget",
    access: "member.ownBudget",
    params: z.strictObject({ id: z.uuid("Session not found"), userId: z.uuid("Member not found") }),
    body: MemberUpdateBodySchema,
    responses: { 200: SessionResponseSchema },
    errors: sessionErrors,
  },
  "PUT /api/sessions/:id/ready": {
    summary: "Mark yourself done, or not (creator, participant)",
    access: "member.ready",
    params: SessionIdParams,
    body: ReadyBodySchema,
    responses: { 200: SessionResponseSchema },
    errors: sessionErrors,
  },
  "POST /api/sessions/:id/links": {
    summary: "Create an invite link with a role, an expiry and a use limit (creator)",
    access: "session.links",
    params: SessionIdParams,
    body: CreateInviteLinkBodySchema,
    responses: { 201: InviteLinkResponseSchema },
    errors: sessionErrors,
    secretAnswer: true,
  },
  "GET /api/sessions/:id/links": {
    summary: "The session's invite links, newest first (creator)",
    access: "session.links",
    params: SessionIdParams,
    responses: { 200: InviteLinksResponseSchema },
    errors: sessionErrors,
  },
  "DELETE /api/sessions/:id/links/:linkId": {
    summary: "Revoke an invite link (creator)",
    access: "session.links",
    params: z.strictObject({ id: z.uuid("Session not found"), linkId: z.uuid("Link not found") }),
    responses: { 200: InviteLinkResponseSchema },
    errors: sessionErrors,
    // The revoked link's token: dead, but kept out of the store all the same.
    secretAnswer: true,
  },
  "DELETE /api/sessions/:id/members/:userId": {
    summary: "Remove a member (creator): their access ends at once; their lines stay",
    access: "session.manageMembers",
    params: z.strictObject({ id: z.uuid("Session not found"), userId: z.uuid("Member not found") }),
    responses: { 200: SessionResponseSchema },
    errors: sessionErrors,
  },
  "POST /api/sessions/:id/transfer": {
    summary: "Hand the session over to a participant (creator); you become a participant",
    access: "session.transfer",
    params: SessionIdParams,
    body: TransferBodySchema,
    responses: { 200: SessionResponseSchema },
    errors: sessionErrors,
  },
  "POST /api/sessions/:id/rotate-code": {
    summary: "A new session code, and a new passcode if it has one (creator); members stay",
    access: "session.rotateCode",
    params: SessionIdParams,
    responses: { 200: SessionResponseSchema },
    errors: sessionErrors,
  },
  "DELETE /api/sessions/:id/leave": {
    summary: "Leave a session (participant, viewer); a pending requester withdraws",
    access: "session.leave",
    params: SessionIdParams,
    responses: { 200: MessageResponseSchema },
    errors: sessionErrors,
  },
  "PUT /api/sessions/:id/end": {
    summary: "End a session (creator); its cart becomes history",
    access: "session.end",
    params: SessionIdParams,
    responses: { 200: MessageWithSessionIdSchema },
    errors: sessionErrors,
  },
  "GET /api/sessions/:id/cart": {
    summary: "The session's cart (members)",
    access: "session.read",
    params: SessionIdParams,
    responses: { 200: CartResponseSchema },
    errors: sessionErrors,
  },
  "GET /api/sessions/:id/activity": {
    summary: "The session's activity log, oldest first, after a seq (members)",
    access: "session.read",
    params: SessionIdParams,
    query: ActivityQuerySchema,
    responses: { 200: ActivityResponseSchema },
    errors: sessionErrors,
  },
  "GET /api/sessions/:id/summary": {
    summary: "Items, the per-member split, fees, tax and total (members)",
    access: "session.read",
    params: SessionIdParams,
    responses: { 200: SessionSummarySchema },
    errors: sessionErrors,
  },
  // Anyone may ask; members and pending requesters get 409 (the table has no role for strangers).
  "POST /api/sessions/join/code": {
    summary: "Ask to join with code and passcode (creates a pending request)",
    access: "user",
    body: JoinByCodeBodySchema,
    responses: { 202: MessageWithSessionIdSchema },
    errors: [...sessionErrors, 429],
  },
  "POST /api/sessions/joinrequests": {
    summary: "Pending join requests of a session (creator)",
    access: "session.decideJoin",
    body: SessionCodeBodySchema,
    responses: { 200: JoinRequestsResponseSchema },
    errors: sessionErrors,
  },
  "POST /api/sessions/approve/:code": {
    summary: "Approve a join request (creator), by userId or email",
    access: "session.decideJoin",
    params: SessionCodeParams,
    body: JoinDecisionBodySchema,
    responses: { 200: MessageResponseSchema },
    errors: sessionErrors,
  },
  "POST /api/sessions/reject/:code": {
    summary: "Reject a join request (creator), by userId or email",
    access: "session.decideJoin",
    params: SessionCodeParams,
    body: JoinDecisionBodySchema,
    responses: { 200: MessageResponseSchema },
    errors: sessionErrors,
  },
  "POST /api/sessions/invite": {
    summary: "Invite someone by email or name as participant or viewer (creator)",
    access: "session.invite",
    body: InviteBodySchema,
    responses: { 201: MessageResponseSchema },
    errors: sessionErrors,
  },
  // Only the invitee has an invite to answer; everyone else gets 404.
  "POST /api/sessions/accinvite": {
    summary: "Accept an invite",
    access: "user",
    body: SessionCodeBodySchema,
    responses: { 200: MessageWithSessionIdSchema },
    errors: sessionErrors,
  },
  "POST /api/sessions/rejinvite": {
    summary: "Reject an invite",
    access: "user",
    body: SessionCodeBodySchema,
    responses: { 200: MessageResponseSchema },
    errors: sessionErrors,
  },

  // Invite links (public preview; accepting needs an account)
  "GET /api/invite/:token": {
    summary: "What an invite link leads to: the session's name, its creator, the role",
    access: "public",
    params: InviteTokenParams,
    responses: { 200: InvitePreviewSchema },
    errors: [400, 404, 410],
  },
  "POST /api/invite/:token/accept": {
    summary: "Join with an invite link: you become a member with its role, no approval",
    access: "user",
    params: InviteTokenParams,
    responses: { 200: z.object({ sessionId: z.string() }) },
    errors: [400, 404, 409, 410],
  },

  // Carts
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

  // Checkout, orders, settling up (API.md "Second wave"; DESIGN section 9, "Checkout")
  "POST /api/sessions/:id/checkout": {
    summary:
      "Turn the cart into an order at today's prices, split by the session's policy, and end the session (creator)",
    access: "session.checkout",
    params: SessionIdParams,
    responses: { 201: OrderResponseSchema },
    errors: sessionErrors,
  },
  "GET /api/orders": {
    summary: "Orders you placed or have a share in, newest first",
    access: "user",
    responses: { 200: OrdersResponseSchema },
    errors: [],
  },
  "GET /api/orders/:id": {
    summary: "One order (its payee and members with a share)",
    access: "order.read",
    params: OrderIdParams,
    responses: { 200: OrderResponseSchema },
    errors: [400, 404],
  },
  "GET /api/orders/:id/receipt.pdf": {
    summary: "The order's receipt as a PDF: every line, every share and its status",
    access: "order.read",
    params: OrderIdParams,
    responses: { 200: pdf },
    errors: [400, 404],
  },
  "POST /api/orders/:id/paid": {
    summary: "Say you paid your share to the payee (a member with a share); twice changes nothing",
    access: "order.pay",
    params: OrderIdParams,
    responses: { 200: OrderResponseSchema },
    errors: [400, 404, 409],
  },
  "POST /api/orders/:id/confirm/:userId": {
    summary:
      "Settle that member's share (payee): confirm their transfer arrived (the default; the share must be paid), or record it as paid in cash or written off (also when unpaid)",
    access: "order.confirm",
    params: z.strictObject({ id: z.uuid("Order not found"), userId: z.uuid("Share not found") }),
    body: ConfirmShareBodySchema,
    responses: { 200: OrderResponseSchema },
    errors: [400, 403, 404, 409],
  },
  "POST /api/orders/:id/mail": {
    summary: "Send the checkout mail again to members whose mail failed (payee)",
    access: "order.confirm",
    params: OrderIdParams,
    responses: { 200: OrderResponseSchema },
    errors: [400, 403, 404],
  },
  "GET /api/balances": {
    summary: "Who owes whom: your net with each person across unconfirmed shares",
    access: "user",
    responses: { 200: BalancesResponseSchema },
    errors: [],
  },

  // Profile and avatars
  "GET /api/profile/me": {
    summary: "My profile (created empty on first read), with my sessions and carts",
    access: "user",
    responses: { 200: ProfileSchema },
    errors: [],
  },
  "POST /api/profile/me": {
    summary:
      "Update my profile: multipart/form-data with name?, bio?, location?, languages? (JSON list), occupation?, phoneNumber?, avatar? (PNG, JPEG, WebP or GIF, at most 5 MB and 4096 x 4096 px)",
    access: "user",
    body: "multipart",
    responses: { 200: ProfileSchema },
    errors: [400, 413, 415],
  },
  "GET /api/users/me/export": {
    summary: "Download all your data as JSON",
    access: "user",
    responses: { 200: accountExport },
    errors: [],
  },
  "DELETE /api/users/me": {
    summary:
      "Delete your account (password required; with shares not yet settled, 409 UNSETTLED_SHARES lists them unless acknowledgeUnsettled is true); see DESIGN sections 9 and 10",
    access: "user",
    body: DeleteAccountBodySchema,
    responses: { 204: z.null().describe("No content") },
    errors: [400, 403, 409],
    errorBodies: { 409: UnsettledSharesErrorSchema },
  },
  "GET /api/users/:userId": {
    summary: "A small public profile of someone who shares a session with me",
    access: "user",
    params: z.strictObject({ userId: z.uuid("User not found") }),
    responses: { 200: PublicUserSchema },
    errors: [404],
  },
  "GET /api/users/:userId/avatar": {
    summary: "A user's uploaded avatar (WebP), else a redirect to the generated one",
    access: "public",
    params: z.strictObject({ userId: z.uuid() }),
    query: z.strictObject({ v: z.string().max(20).optional() }),
    responses: { 200: z.any().describe("image/webp"), 302: z.null() },
    errors: [400],
  },
  "GET /api/avatars/:file": {
    summary: "A generated avatar for any seed (email, name, session code), as SVG",
    access: "public",
    params: AvatarFileParamsSchema,
    responses: { 200: svg },
    errors: [400],
  },
} as const satisfies Record<`${HttpMethod} /api/${string}`, Endpoint>;

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
      ? { body: SchemaIn<Field<K, "body">> }
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
