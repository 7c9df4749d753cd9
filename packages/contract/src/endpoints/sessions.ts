import { z } from "zod";
import { MessageResponseSchema } from "../auth.ts";
import { SessionSummarySchema } from "../carts.ts";
import { ActivityQuerySchema, ActivityResponseSchema } from "../activity.ts";
import {
  ApproversBodySchema,
  CreateInviteLinkBodySchema,
  CreateSessionBodySchema,
  InviteLinkSchema,
  InvitePreviewSchema,
  LookViewSchema,
  TransferBodySchema,
  InviteBodySchema,
  JoinByCodeBodySchema,
  JoinDecisionBodySchema,
  MemberLinesQuerySchema,
  SessionCodeBodySchema,
  SessionCodeSchema,
  SplitPolicySchema,
  UpdateSessionBodySchema,
} from "../sessions.ts";
import { ApiErrorSchema } from "../errors.ts";
import { pageQuery } from "../pages.ts";
import { SeriesBodySchema } from "../series.ts";
import { SessionIdParams, sessionErrors, type EndpointGroup } from "./base.ts";
import {
  CartResponseSchema,
  InvitesResponseSchema,
  JoinRequestsResponseSchema,
  MemberUpdateBodySchema,
  MessageWithSessionIdSchema,
  MyJoinRequestsResponseSchema,
  ReadyBodySchema,
  SessionCreatedResponseSchema,
  SessionResponseSchema,
  SessionsPageSchema,
  SessionsResponseSchema,
  SessionSyncResponseSchema,
} from "./envelopes.ts";

const SessionCodeParams = z.strictObject({ code: SessionCodeSchema });
/** Any string up to 64: a malformed invite token is the same 404 as an unknown one. */
const InviteTokenParams = z.strictObject({ token: z.string().max(64, "Invite link not found") });
/** 409 MEMBER_HAS_LINES: the member still has `lines` lines in the active cart. */
const MemberHasLinesErrorSchema = ApiErrorSchema.extend({ lines: z.number().int().optional() });
const InviteLinkResponseSchema = z.object({ link: InviteLinkSchema });
const InviteLinksResponseSchema = z.object({ links: z.array(InviteLinkSchema) });

/** Sessions: their members, invites, join requests, links, activity and summary. */
export const sessionEndpoints = {
  "POST /api/sessions": {
    summary: "Create a session (the caller is its creator); its cart is created with it",
    access: "user",
    body: CreateSessionBodySchema,
    responses: { 201: SessionCreatedResponseSchema },
    errors: [400],
  },
  "GET /api/sessions/my": {
    summary:
      "My sessions, active and ended, newest first, a page at a time (cursor: the last session's id)",
    access: "user",
    query: pageQuery("session"),
    responses: { 200: SessionsPageSchema },
    errors: [400],
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
  "PUT /api/sessions/:id/approvers": {
    summary:
      'The members who may approve "ask first" lines besides the creator: the whole list (creator)',
    access: "session.approvers",
    params: SessionIdParams,
    body: ApproversBodySchema,
    responses: { 200: SessionResponseSchema },
    errors: sessionErrors,
  },
  "PUT /api/sessions/:id/series": {
    summary:
      "Make the session repeat (an RRULE, daily or weekly, and an IANA time zone), or null to end its series (creator)",
    access: "session.series",
    params: SessionIdParams,
    body: SeriesBodySchema,
    responses: { 200: SessionResponseSchema },
    errors: sessionErrors,
  },
  "PATCH /api/sessions/:id/members/:userId": {
    summary:
      "A member's role, budget, budget mode or child mark (creator); any member may set their own budget",
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
    summary:
      "Remove a member (creator): their access ends at once; their lines are removed or given to a member who stays (lines=remove, or lines=give&to=)",
    access: "session.manageMembers",
    params: z.strictObject({ id: z.uuid("Session not found"), userId: z.uuid("Member not found") }),
    query: MemberLinesQuerySchema,
    responses: { 200: SessionResponseSchema },
    errors: sessionErrors,
    errorBodies: { 409: MemberHasLinesErrorSchema },
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
    summary:
      "Leave a session (participant, viewer); a pending requester withdraws. Your lines are removed or given to a member who stays (lines=remove, or lines=give&to=)",
    access: "session.leave",
    params: SessionIdParams,
    query: MemberLinesQuerySchema,
    responses: { 200: MessageResponseSchema },
    errors: sessionErrors,
    errorBodies: { 409: MemberHasLinesErrorSchema },
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
} as const satisfies EndpointGroup;

/** Invite links (public preview; accepting needs an account) and look-only links (public). */
export const inviteLinkEndpoints = {
  "GET /api/invite/:token": {
    summary: "What an invite link leads to: the session's name, its creator, the role",
    access: "public",
    params: InviteTokenParams,
    responses: { 200: InvitePreviewSchema },
    errors: [400, 404, 410],
  },
  "GET /api/look/:token": {
    summary:
      "What a look-only link shows, without an account: the cart's lines (name, quantity, picture, note) and total; nothing about its members; 404 once the link is revoked or expired or the session has ended",
    access: "public",
    params: z.strictObject({ token: z.string().max(64, "This link does not work (any more)") }),
    responses: { 200: LookViewSchema },
    errors: [400, 404],
  },
  "POST /api/invite/:token/accept": {
    summary: "Join with an invite link: you become a member with its role, no approval",
    access: "user",
    params: InviteTokenParams,
    responses: { 200: z.object({ sessionId: z.string() }) },
    errors: [400, 404, 409, 410],
  },
} as const satisfies EndpointGroup;
