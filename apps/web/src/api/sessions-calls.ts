import type { RequestOf, ResponseOf } from "@cartner/contract";
import { call } from "../lib/call.ts";

/** What the create forms send (the contract's body, without the ignored `creator`). */
export type CreateSessionBody = Omit<RequestOf<"POST /api/sessions">["body"], "creator">;
export type CreateSessionResponse = ResponseOf<"POST /api/sessions">;
/** What becomes of a leaving member's cart lines: removed, or given to a member who stays. */
export type MemberLinesChoice = RequestOf<"DELETE /api/sessions/:id/leave">["query"];

/*
 * The Sessions calls of the endpoint table and the sessions' query keys, without TanStack Query:
 * the landing page creates a session with them on the first load. The hooks are in sessions.ts.
 */

/** POST /api/sessions as it answers; createSessionOrThrow also insists on the new id. */
export function createSession(body: CreateSessionBody) {
  return call("POST /api/sessions", { body });
}

/** A page of my sessions, active and ended, newest first. */
export function fetchMySessions(cursor?: string, signal?: AbortSignal) {
  return call("GET /api/sessions/my", { query: cursor ? { cursor } : {} }, { signal });
}

export function fetchSessionSync(signal?: AbortSignal) {
  return call("GET /api/sessions/sync", {}, { signal });
}

export function fetchSession(id: string, signal?: AbortSignal) {
  return call("GET /api/sessions/:id", { params: { id } }, { signal });
}

export function updateSession(id: string, body: RequestOf<"PATCH /api/sessions/:id">["body"]) {
  return call("PATCH /api/sessions/:id", { params: { id }, body });
}

/** `lines`: what becomes of the caller's cart lines (needed while they have some). */
export function leaveSession(id: string, lines: MemberLinesChoice = {}) {
  return call("DELETE /api/sessions/:id/leave", { params: { id }, query: lines });
}

export function setSplitPolicy(
  id: string,
  body: RequestOf<"PUT /api/sessions/:id/split-policy">["body"],
) {
  return call("PUT /api/sessions/:id/split-policy", { params: { id }, body });
}

export function setSeries(id: string, body: RequestOf<"PUT /api/sessions/:id/series">["body"]) {
  return call("PUT /api/sessions/:id/series", { params: { id }, body });
}

export function updateMember(
  id: string,
  userId: string,
  body: RequestOf<"PATCH /api/sessions/:id/members/:userId">["body"],
) {
  return call("PATCH /api/sessions/:id/members/:userId", { params: { id, userId }, body });
}

/** The deadline (null clears it). */
export function setDeadline(id: string, body: RequestOf<"PUT /api/sessions/:id/deadline">["body"]) {
  return call("PUT /api/sessions/:id/deadline", { params: { id }, body });
}

export function reopenSession(id: string, closesAt: string) {
  return call("POST /api/sessions/:id/reopen", { params: { id }, body: { closesAt } });
}

export function setReady(id: string, ready: boolean) {
  return call("PUT /api/sessions/:id/ready", { params: { id }, body: { ready } });
}

export function endSession(id: string) {
  return call("PUT /api/sessions/:id/end", { params: { id } });
}

export function joinByCode(body: RequestOf<"POST /api/sessions/join/code">["body"]) {
  return call("POST /api/sessions/join/code", { body });
}

export function fetchMyJoinRequests(signal?: AbortSignal) {
  return call("GET /api/sessions/join-requests/mine", {}, { signal });
}

export function fetchJoinRequests(sessionCode: string, signal?: AbortSignal) {
  return call("POST /api/sessions/joinrequests", { body: { sessionCode } }, { signal });
}

/** We always answer a join request by userId. */
export function approveJoinRequest(sessionCode: string, body: { userId: string }) {
  return call("POST /api/sessions/approve/:code", { params: { code: sessionCode }, body });
}

export function rejectJoinRequest(sessionCode: string, body: { userId: string }) {
  return call("POST /api/sessions/reject/:code", { params: { code: sessionCode }, body });
}

export function inviteMember(body: RequestOf<"POST /api/sessions/invite">["body"]) {
  return call("POST /api/sessions/invite", { body });
}

export function fetchMyInvites(signal?: AbortSignal) {
  return call("GET /api/sessions/myinvites", {}, { signal });
}

export function fetchActivity(id: string, after: number, limit: number, signal?: AbortSignal) {
  return call(
    "GET /api/sessions/:id/activity",
    { params: { id }, query: { after, limit } },
    { signal },
  );
}

export function fetchInviteLinks(id: string, signal?: AbortSignal) {
  return call("GET /api/sessions/:id/links", { params: { id } }, { signal });
}

export function createInviteLink(
  id: string,
  body: RequestOf<"POST /api/sessions/:id/links">["body"],
) {
  return call("POST /api/sessions/:id/links", { params: { id }, body });
}

export function revokeInviteLink(id: string, linkId: string) {
  return call("DELETE /api/sessions/:id/links/:linkId", { params: { id, linkId } });
}

export function removeMember(id: string, userId: string, lines: MemberLinesChoice = {}) {
  return call("DELETE /api/sessions/:id/members/:userId", {
    params: { id, userId },
    query: lines,
  });
}

/** Hands the session over to another member, who becomes its creator. */
export function transferSession(id: string, userId: string) {
  return call("POST /api/sessions/:id/transfer", { params: { id }, body: { userId } });
}

export function rotateSessionCode(id: string) {
  return call("POST /api/sessions/:id/rotate-code", { params: { id } });
}

export function fetchInvitePreview(token: string, signal?: AbortSignal) {
  return call("GET /api/invite/:token", { params: { token } }, { signal, auth: false });
}

/** What a look-only link shows (no account: asked without a token). */
export function fetchLookView(token: string, signal?: AbortSignal) {
  return call("GET /api/look/:token", { params: { token } }, { signal, auth: false });
}

export function acceptInviteLink(token: string) {
  return call("POST /api/invite/:token/accept", { params: { token } });
}

export function acceptInvite(sessionCode: string) {
  return call("POST /api/sessions/accinvite", { body: { sessionCode } });
}

export function rejectInvite(sessionCode: string) {
  return call("POST /api/sessions/rejinvite", { body: { sessionCode } });
}

/** Query keys. Everything session-related lives under ["sessions"], so one invalidation covers it. */
export const sessionKeys = {
  all: ["sessions"] as const,
  sync: () => ["sessions", "sync"] as const,
  /** My sessions, a page at a time (the active ones come whole from the sync). */
  mine: () => ["sessions", "my"] as const,
  detail: (id: string) => ["sessions", "detail", id] as const,
  invites: () => ["sessions", "invites"] as const,
  links: (id: string) => ["sessions", "links", id] as const,
  activity: (id: string) => ["sessions", "activity", id] as const,
  joinRequests: (sessionCode: string) => ["sessions", "join-requests", sessionCode] as const,
  /** My own join requests still waiting for an answer. */
  myJoinRequests: () => ["sessions", "my-join-requests"] as const,
  /** Every session's join requests (live events name the session by id, not by code). */
  allJoinRequests: () => ["sessions", "join-requests"] as const,
};

export const NO_SESSION_ID_MESSAGE = "Session creation returned no ID";

export function createdSessionId(response: CreateSessionResponse | undefined): string | null {
  const id = response?.session?.id ?? response?.session?._id;
  return typeof id === "string" && id !== "" ? id : null;
}

/** POSTs the session and returns its id; an answer without one is an error, never a success. */
export async function createSessionOrThrow(body: CreateSessionBody): Promise<{
  id: string;
  response: CreateSessionResponse;
}> {
  const response = await createSession(body);
  const id = createdSessionId(response);
  if (!id) throw new Error(NO_SESSION_ID_MESSAGE);
  return { id, response };
}
