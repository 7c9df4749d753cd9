import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Device, RegisterBody, RequestOf } from "@cartner/contract";
import { useInvalidatingMutation, type Reactions } from "../lib/mutation-reactions.ts";
import { browserTimeZone } from "../lib/time-zones.ts";
import { authApi } from "./auth-calls.ts";
import { profileKeys } from "./profile.ts";

export { authApi };

export const authKeys = {
  devices: () => ["auth", "devices"] as const,
  health: () => ["health"] as const,
};

export const authQueries = {
  devices: () =>
    queryOptions({
      queryKey: authKeys.devices(),
      queryFn: ({ signal }) => authApi.devices(signal),
    }),
  /** Asked once per visit. */
  health: () =>
    queryOptions({
      queryKey: authKeys.health(),
      queryFn: ({ signal }) => authApi.health(signal),
      staleTime: Infinity,
      retry: false,
    }),
};

/** Whether the server keeps mails in its development outbox. */
export function useDevMailbox(): boolean {
  return useQuery({ ...authQueries.health(), select: (health) => health.devMailbox }).data ?? false;
}

/** My signed-in devices. */
export function useDevices() {
  return useQuery({ ...authQueries.devices(), select: (body) => body.sessions });
}

/** Signs one device out; the list is read again. */
export function useSignOutDevice(reactions: Reactions<unknown, Device> = {}) {
  return useInvalidatingMutation(
    (device: Device) => authApi.signOutDevice(device._id),
    [authKeys.devices()],
    reactions,
  );
}

export function useRegister(
  reactions: Reactions<Awaited<ReturnType<typeof authApi.register>>, RegisterBody>,
) {
  return useMutation({ ...reactions, mutationFn: (body: RegisterBody) => authApi.register(body) });
}

export function useForgotPassword(
  reactions: Reactions<Awaited<ReturnType<typeof authApi.forgotPassword>>, string>,
) {
  return useMutation({
    ...reactions,
    mutationFn: (address: string) => authApi.forgotPassword(address),
  });
}

type ResetBody = RequestOf<"POST /api/auth/reset-password">["body"];

export function useResetPassword(
  body: () => ResetBody,
  reactions: Reactions<Awaited<ReturnType<typeof authApi.resetPassword>>>,
) {
  return useMutation({ ...reactions, mutationFn: () => authApi.resetPassword(body()) });
}

/**
 * Checks a sign-in or credentials code, naming the browser's time zone. After a credentials
 * change the profile shows the new email, so it is read again.
 */
export function useVerifyOtp(
  userId: string,
  reactions: Reactions<Awaited<ReturnType<typeof authApi.verifyOtp>>, string>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    // The browser's zone: the account states times in it until its owner chooses one.
    mutationFn: (otp: string) =>
      authApi.verifyOtp({ userId, code: otp, timeZone: browserTimeZone() }),
    onSuccess: async (...args) => {
      await reactions.onSuccess?.(...args);
      if (args[0].purpose === "update")
        void client.invalidateQueries({ queryKey: profileKeys.all });
    },
  });
}

export function useResendOtp(
  userId: string,
  reactions: Reactions<Awaited<ReturnType<typeof authApi.resendOtp>>>,
) {
  return useMutation({ ...reactions, mutationFn: () => authApi.resendOtp({ userId }) });
}
