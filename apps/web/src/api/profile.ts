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

/** The Profile calls of the endpoint table (the account's time zone too), plus PATCH /auth/update-credentials. */
export const profileApi = {
  me: (signal?: AbortSignal) => call("GET /api/profile/me", {}, signal ? { signal } : undefined),
  /** Multipart: api.ts sends FormData as is, so the browser sets the boundary. */
  update: (form: FormData) => call("POST /api/profile/me", { body: form }),
  updateCredentials: (body: RequestOf<"PATCH /api/auth/update-credentials">["body"]) =>
    call("PATCH /api/auth/update-credentials", { body }),
  /** The zone every time the server sends this person is stated in. */
  setTimeZone: (timeZone: string) => call("PUT /api/users/me/time-zone", { body: { timeZone } }),
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

export const profileQueries = {
  /** GET /profile/me (the server creates an empty profile on first read). */
  me: () =>
    queryOptions({
      queryKey: profileKeys.me(),
      queryFn: ({ signal }) => profileApi.me(signal),
    }),
  user: (userId: string) =>
    queryOptions({
      queryKey: profileKeys.user(userId),
      queryFn: ({ signal }) => profileApi.user(userId, signal),
      enabled: userId !== "",
    }),
};

export function useMyProfile() {
  return useQuery(profileQueries.me());
}

/** A fellow shopper's public profile. */
export function usePublicProfile(userId: string) {
  return useQuery(profileQueries.user(userId));
}

/** Saves the profile form; the answer is the new profile. */
export function useUpdateProfile(
  reactions: Reactions<Awaited<ReturnType<typeof profileApi.update>>, FormData>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: (form: FormData) => profileApi.update(form),
    onSuccess: (...args) => {
      client.setQueryData(profileKeys.me(), args[0]);
      return reactions.onSuccess?.(...args);
    },
  });
}

/** Saves the account's time zone; the profile in the cache shows it at once. */
export function useSetTimeZone(
  reactions: Reactions<Awaited<ReturnType<typeof profileApi.setTimeZone>>, string>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: (timeZone: string) => profileApi.setTimeZone(timeZone),
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
  reactions: Reactions<
    Awaited<ReturnType<typeof profileApi.updateCredentials>>,
    UpdateCredentialsBody
  >,
) {
  return useMutation({
    ...reactions,
    mutationFn: (body: UpdateCredentialsBody) => profileApi.updateCredentials(body),
  });
}

/** Downloads all of one's data as a JSON file; progress is the caller's pending state. */
export function useExportData(reactions: Reactions<void>) {
  return useMutation({
    ...reactions,
    mutationFn: async () => saveFile(await profileApi.exportData(), "cartner-my-data.json"),
  });
}

/** Deletes the account with this password; the variable says whether open shares are accepted. */
export function useDeleteAccount(
  password: string,
  reactions: Reactions<Awaited<ReturnType<typeof profileApi.deleteAccount>>, boolean>,
) {
  return useMutation({
    ...reactions,
    mutationFn: (acknowledgeUnsettled: boolean) =>
      profileApi.deleteAccount(password, acknowledgeUnsettled),
  });
}
