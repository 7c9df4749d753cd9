import { api } from "../../lib/api.ts";
import type { PendingSession } from "../../lib/storage.ts";

export type CreateSessionBody = PendingSession;

/** POST /api/sessions answers `{ message, session }`; SPEC's client reads `session.id`. */
export interface CreateSessionResponse {
  message?: string;
  session?: { id?: string; _id?: string } | null;
}

export const sessionsApi = {
  create: (body: CreateSessionBody) => api.post<CreateSessionResponse>("/api/sessions", body),
};

export function createdSessionId(response: CreateSessionResponse | undefined): string | null {
  const id = response?.session?.id ?? response?.session?._id;
  return typeof id === "string" && id !== "" ? id : null;
}
