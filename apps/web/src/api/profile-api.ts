import type { RequestOf, ResponseOf } from "@cartner/contract";
import { call } from "../lib/call.ts";

export type PublicUser = ResponseOf<"GET /api/users/:userId">["user"];

export const profileKeys = {
  all: ["profile"] as const,
  me: () => [...profileKeys.all, "me"] as const,
  user: (userId: string) => [...profileKeys.all, "user", userId] as const,
};

/** The Profile calls of the endpoint table, plus PATCH /auth/update-credentials. */
export const profileApi = {
  me: (signal?: AbortSignal) => call("GET /api/profile/me", {}, signal ? { signal } : undefined),
  /** Multipart: api.ts sends FormData as is, so the browser sets the boundary. */
  update: (form: FormData) => call("POST /api/profile/me", { body: form }),
  updateCredentials: (body: RequestOf<"PATCH /api/auth/update-credentials">["body"]) =>
    call("PATCH /api/auth/update-credentials", { body }),
  user: (userId: string, signal?: AbortSignal) =>
    call("GET /api/users/:userId", { params: { userId } }, signal ? { signal } : undefined),
  /** All of one's data, as the JSON file the server sends. */
  exportData: () =>
    call("GET /api/users/me/export", {}, { responseType: "blob" }) as unknown as Promise<Blob>,
  /** 409 UNSETTLED_SHARES lists the shares still open, unless `acknowledgeUnsettled`. */
  deleteAccount: (password: string, acknowledgeUnsettled = false) =>
    call("DELETE /api/users/me", {
      body: acknowledgeUnsettled ? { password, acknowledgeUnsettled } : { password },
    }),
};
