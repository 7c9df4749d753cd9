import type { Profile, UpdateCredentialsBody } from "@cartner/contract";
import { api } from "../../lib/api.ts";

export interface PublicUser {
  _id: string;
  name: string;
  avatar: string;
  joinedAt: string;
}

export const profileKeys = {
  all: ["profile"] as const,
  me: () => [...profileKeys.all, "me"] as const,
  user: (userId: string) => [...profileKeys.all, "user", userId] as const,
};

/** The Profile calls of API.md, plus PATCH /auth/update-credentials. */
export const profileApi = {
  me: (signal?: AbortSignal) =>
    api.get<Profile>("/api/profile/me", signal ? { signal } : undefined),
  /** Multipart: api.ts sends FormData as is, so the browser sets the boundary. */
  update: (form: FormData) => api.post<Profile>("/api/profile/me", form),
  updateCredentials: (body: UpdateCredentialsBody) =>
    api.patch<{ message?: string; userId?: string }>("/api/auth/update-credentials", body),
  user: (userId: string, signal?: AbortSignal) =>
    api.get<{ user: PublicUser }>(
      `/api/users/${encodeURIComponent(userId)}`,
      signal ? { signal } : undefined,
    ),
};
