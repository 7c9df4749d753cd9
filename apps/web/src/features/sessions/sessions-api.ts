import type {
  CreateSessionBody as ContractCreateSessionBody,
  Invite,
  InviteRole,
  JoinRequest,
  Session,
  UpdateSessionBody,
} from "@cartner/contract";
import { ApiError, api } from "../../lib/api.ts";

/** What the create forms send (the contract's body, without the ignored `creator`). */
export type CreateSessionBody = Omit<ContractCreateSessionBody, "creator">;

/** POST /api/sessions answers `{ message, session }`; SPEC's client reads `session.id`. */
export interface CreateSessionResponse {
  message?: string;
  session?: Partial<Session> | null;
}

export interface MessageResponse {
  message: string;
}

export interface SessionIdResponse {
  message: string;
  sessionId: string;
}

export interface InviteBody {
  sessionCode: string;
  emailOrUsername: string;
  role: InviteRole;
}

/** Approve or reject a join request; we always answer by userId. */
export interface JoinDecisionBody {
  userId: string;
}

const enc = encodeURIComponent;

/** The Sessions calls of API.md. */
export const sessionsApi = {
  create: (body: CreateSessionBody) => api.post<CreateSessionResponse>("/api/sessions", body),
  mine: (signal?: AbortSignal) => api.get<{ sessions: Session[] }>("/api/sessions/my", { signal }),
  actives: (signal?: AbortSignal) =>
    api.get<{ sessions: Session[] }>("/api/sessions/mysessions/actives", { signal }),
  sync: (signal?: AbortSignal) =>
    api.get<{ sessions: Session[]; version?: number }>("/api/sessions/sync", { signal }),
  get: (id: string, signal?: AbortSignal) =>
    api.get<{ session: Session }>(`/api/sessions/${enc(id)}`, { signal }),
  update: (id: string, body: UpdateSessionBody) =>
    api.patch<{ session: Session }>(`/api/sessions/${enc(id)}`, body),
  leave: (id: string) => api.delete<MessageResponse>(`/api/sessions/${enc(id)}/leave`),
  end: (id: string) => api.put<SessionIdResponse>(`/api/sessions/${enc(id)}/end`),
  joinByCode: (body: { sessionCode: string; passcode: string }) =>
    api.post<SessionIdResponse>("/api/sessions/join/code", body),
  joinRequests: (sessionCode: string, signal?: AbortSignal) =>
    api.post<{ requests: JoinRequest[] }>(
      "/api/sessions/joinrequests",
      { sessionCode },
      { signal },
    ),
  approve: (sessionCode: string, body: JoinDecisionBody) =>
    api.post<MessageResponse>(`/api/sessions/approve/${enc(sessionCode)}`, body),
  reject: (sessionCode: string, body: JoinDecisionBody) =>
    api.post<MessageResponse>(`/api/sessions/reject/${enc(sessionCode)}`, body),
  invite: (body: InviteBody) => api.post<MessageResponse>("/api/sessions/invite", body),
  myInvites: (signal?: AbortSignal) =>
    api.get<{ invites: Invite[] }>("/api/sessions/myinvites", { signal }),
  acceptInvite: (sessionCode: string) =>
    api.post<SessionIdResponse>("/api/sessions/accinvite", { sessionCode }),
  rejectInvite: (sessionCode: string) =>
    api.post<MessageResponse>("/api/sessions/rejinvite", { sessionCode }),
};

/** Query keys. Everything session-related lives under ["sessions"], so one invalidation covers it. */
export const sessionKeys = {
  all: ["sessions"] as const,
  sync: () => ["sessions", "sync"] as const,
  mine: () => ["sessions", "my"] as const,
  detail: (id: string) => ["sessions", "detail", id] as const,
  invites: () => ["sessions", "invites"] as const,
  joinRequests: (sessionCode: string) => ["sessions", "join-requests", sessionCode] as const,
  /** Every session's join requests (live events name the session by id, not by code). */
  allJoinRequests: () => ["sessions", "join-requests"] as const,
};

export const NO_SESSION_ID_MESSAGE = "Session creation returned no ID";

export function createdSessionId(response: CreateSessionResponse | undefined): string | null {
  const id = response?.session?.id ?? response?.session?._id;
  return typeof id === "string" && id !== "" ? id : null;
}

/** A 404, or a malformed id in the path (400 on `id`): either way there is no such session. */
export function isNotFound(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return error.status === 404 || (error.status === 400 && error.fields?.id !== undefined);
}
