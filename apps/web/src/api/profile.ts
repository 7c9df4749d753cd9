import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Profile, RequestOf, ResponseOf, UpdateCredentialsBody } from "@cartner/contract";
import { call } from "../lib/call.ts";
import { saveFile } from "../lib/download.ts";
import type { Reactions } from "../lib/mutation-reactions.ts";

export type PublicUser = ResponseOf<"GET /api/users/:userId">["user"];

export const profileKeys = {
  all: ["profile"] as const,
  me: () => [...profileKeys.all, "me"] as const,
  user: (userId: string) => [...profileKeys.all, "user", userId] as const,
};

// The Profile calls of the endpoint table (the account's time zone too), plus PATCH /auth/update-credentials.

export function fetchMyProfile(signal?: AbortSignal) {
  return call("GET /api/profile/me", {}, signal ? { signal } : undefined);
}

/** Multipart: api.ts sends FormData as is, so the browser sets the boundary. */
export function updateProfile(form: FormData) {
  return call("POST /api/profile/me", { body: form });
}

export function updateCredentials(body: RequestOf<"PATCH /api/auth/update-credentials">["body"]) {
  return call("PATCH /api/auth/update-credentials", { body });
}

/** The zone every time the server sends this person is stated in. */
export function setTimeZone(timeZone: string) {
  return call("PUT /api/users/me/time-zone", { body: { timeZone } });
}

export function fetchPublicProfile(userId: string, signal?: AbortSignal) {
  return call("GET /api/users/:userId", { params: { userId } }, signal ? { signal } : undefined);
}

/** All of one's data, as the JSON file the server sends. */
export function exportData() {
  return call("GET /api/users/me/export", {}, { responseType: "blob" }) as unknown as Promise<Blob>;
}

/** 409 UNSETTLED_SHARES lists the shares still open, unless `acknowledgeUnsettled`. */
export function deleteAccount(password: string, acknowledgeUnsettled = false) {
  return call("DELETE /api/users/me", {
    body: acknowledgeUnsettled ? { password, acknowledgeUnsettled } : { password },
  });
}

/** GET /profile/me (the server creates an empty profile on first read). */
export function myProfileQuery() {
  return queryOptions({
    queryKey: profileKeys.me(),
    queryFn: ({ signal }) => fetchMyProfile(signal),
  });
}

export function publicProfileQuery(userId: string) {
  return queryOptions({
    queryKey: profileKeys.user(userId),
    queryFn: ({ signal }) => fetchPublicProfile(userId, signal),
    enabled: userId !== "",
  });
}

export function useMyProfile() {
  return useQuery(myProfileQuery());
}

/** A fellow shopper's public profile. */
export function usePublicProfile(userId: string) {
  return useQuery(publicProfileQuery(userId));
}

/** Saves the profile form; the answer is the new profile. */
export function useUpdateProfile(
  reactions: Reactions<Awaited<ReturnType<typeof updateProfile>>, FormData>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: (form: FormData) => updateProfile(form),
    onSuccess: (...args) => {
      client.setQueryData(profileKeys.me(), args[0]);
      return reactions.onSuccess?.(...args);
    },
  });
}

/** Saves the account's time zone; the profile in the cache shows it at once. */
export function useSetTimeZone(
  reactions: Reactions<Awaited<ReturnType<typeof setTimeZone>>, string>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: (timeZone: string) => setTimeZone(timeZone),
    onSuccess: (...args) => {
      const { timeZone } = args[0];
      client.setQueryData(profileKeys.me(), (old: Profile | undefined) =>
        old ? { ...old, timeZone } : old,
      );
      return reactions.onSuccess?.(...args);
    },
  });
}

export function useUpdateCredentials(
  reactions: Reactions<Awaited<ReturnType<typeof updateCredentials>>, UpdateCredentialsBody>,
) {
  return useMutation({
    ...reactions,
    mutationFn: (body: UpdateCredentialsBody) => updateCredentials(body),
  });
}

/** Downloads all of one's data as a JSON file; progress is the caller's pending state. */
export function useExportData(reactions: Reactions<void>) {
  return useMutation({
    ...reactions,
    mutationFn: async () => saveFile(await exportData(), "cartner-my-data.json"),
  });
}

/** Deletes the account with this password; the variable says whether open shares are accepted. */
export function useDeleteAccount(
  password: string,
  reactions: Reactions<Awaited<ReturnType<typeof deleteAccount>>, boolean>,
) {
  return useMutation({
    ...reactions,
    mutationFn: (acknowledgeUnsettled: boolean) => deleteAccount(password, acknowledgeUnsettled),
  });
}
