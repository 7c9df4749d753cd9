import type { RequestOf, ResponseOf } from "@cartner/contract";
import { call } from "../lib/call.ts";

/** What the create forms send (the contract's body, without the ignored `creator`). */
export type CreateSessionBody = Omit<RequestOf<"POST /api/sessions">["body"], "creator">;
export type CreateSessionResponse = ResponseOf<"POST /api/sessions">;
/** What becomes of a leaving member's cart lines: removed, or given to a member who stays. */
export type MemberLinesChoice = RequestOf<"DELETE /api/sessions/:id/leave">["query"];

/**
 * The Sessions calls of the endpoint table and the sessions' query keys, without TanStack Query:
 * the landing page creates a session with them on the first load. The hooks are in sessions.ts.
 */
export const sessionsApi = {
  create: (body: CreateSessionBody) => call("POST /api/sessions", { body }),
  mine: (signal?: AbortSignal) => call("GET /api/sessions/my", {}, { signal }),
  actives: (signal?: AbortSignal) => call("GET /api/sessions/mysessions/actives", {}, { signal }),
  sync: (signal?: AbortSignal) => call("GET /api/sessions/sync", {}, { signal }),
  get: (id: string, signal?: AbortSignal) =>
    call("GET /api/sessions/:id", { params: { id } }, { signal }),
  update: (id: string, body: RequestOf<"PATCH /api/sessions/:id">["body"]) =>
    call("PATCH /api/sessions/:id", { params: { id }, body }),
  /** `lines`: what becomes of the caller's cart lines (needed while they have some). */
  leave: (id: string, lines: MemberLinesChoice = {}) =>
    call("DELETE /api/sessions/:id/leave", { params: { id }, query: lines }),
  setSplitPolicy: (id: string, body: RequestOf<"PUT /api/sessions/:id/split-policy">["body"]) =>
    call("PUT /api/sessions/:id/split-policy", { params: { id }, body }),
  setSeries: (id: string, body: RequestOf<"PUT /api/sessions/:id/series">["body"]) =>
    call("PUT /api/sessions/:id/series", { params: { id }, body }),
  updateMember: (
    id: string,
    userId: string,
    body: RequestOf<"PATCH /api/sessions/:id/members/:userId">["body"],
  ) => call("PATCH /api/sessions/:id/members/:userId", { params: { id, userId }, body }),
  /** The deadline (null clears it). */
  setDeadline: (id: string, body: RequestOf<"PUT /api/sessions/:id/deadline">["body"]) =>
    call("PUT /api/sessions/:id/deadline", { params: { id }, body }),
  reopen: (id: string, closesAt: string) =>
    call("POST /api/sessions/:id/reopen", { params: { id }, body: { closesAt } }),
  setReady: (id: string, ready: boolean) =>
    call("PUT /api/sessions/:id/ready", { params: { id }, body: { ready } }),
  end: (id: string) => call("PUT /api/sessions/:id/end", { params: { id } }),
  joinByCode: (body: RequestOf<"POST /api/sessions/join/code">["body"]) =>
    call("POST /api/sessions/join/code", { body }),
  myJoinRequests: (signal?: AbortSignal) =>
    call("GET /api/sessions/join-requests/mine", {}, { signal }),
  joinRequests: (sessionCode: string, signal?: AbortSignal) =>
    call("POST /api/sessions/joinrequests", { body: { sessionCode } }, { signal }),
  /** We always answer a join request by userId. */
  approve: (sessionCode: string, body: { userId: string }) =>
    call("POST /api/sessions/approve/:code", { params: { code: sessionCode }, body }),
  reject: (sessionCode: string, body: { userId: string }) =>
    call("POST /api/sessions/reject/:code", { params: { code: sessionCode }, body }),
  invite: (body: RequestOf<"POST /api/sessions/invite">["body"]) =>
    call("POST /api/sessions/invite", { body }),
  myInvites: (signal?: AbortSignal) => call("GET /api/sessions/myinvites", {}, { signal }),
  activity: (id: string, after: number, limit: number, signal?: AbortSignal) =>
    call("GET /api/sessions/:id/activity", { params: { id }, query: { after, limit } }, { signal }),
  links: (id: string, signal?: AbortSignal) =>
    call("GET /api/sessions/:id/links", { params: { id } }, { signal }),
  createLink: (id: string, body: RequestOf<"POST /api/sessions/:id/links">["body"]) =>
    call("POST /api/sessions/:id/links", { params: { id }, body }),
  revokeLink: (id: string, linkId: string) =>
    call("DELETE /api/sessions/:id/links/:linkId", { params: { id, linkId } }),
  removeMember: (id: string, userId: string, lines: MemberLinesChoice = {}) =>
    call("DELETE /api/sessions/:id/members/:userId", { params: { id, userId }, query: lines }),
  transfer: (id: string, userId: string) =>
    call("POST /api/sessions/:id/transfer", { params: { id }, body: { userId } }),
  rotateCode: (id: string) => call("POST /api/sessions/:id/rotate-code", { params: { id } }),
  invitePreview: (token: string, signal?: AbortSignal) =>
    call("GET /api/invite/:token", { params: { token } }, { signal, auth: false }),
  acceptLink: (token: string) => call("POST /api/invite/:token/accept", { params: { token } }),
  acceptInvite: (sessionCode: string) =>
    call("POST /api/sessions/accinvite", { body: { sessionCode } }),
  rejectInvite: (sessionCode: string) =>
    call("POST /api/sessions/rejinvite", { body: { sessionCode } }),
};

/** Query keys. Everything session-related lives under ["sessions"], so one invalidation covers it. */
export const sessionKeys = {
  all: ["sessions"] as const,
  sync: () => ["sessions", "sync"] as const,
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
export async function createSession(body: CreateSessionBody): Promise<{
  id: string;
  response: CreateSessionResponse;
}> {
  const response = await sessionsApi.create(body);
  const id = createdSessionId(response);
  if (!id) throw new Error(NO_SESSION_ID_MESSAGE);
  return { id, response };
}
