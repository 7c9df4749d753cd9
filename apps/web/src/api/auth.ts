import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Device, RegisterBody, RequestOf } from "@cartner/contract";
import { useInvalidatingMutation, type Reactions } from "../lib/mutation-reactions.ts";
import { browserTimeZone } from "../lib/time-zones.ts";
import {
  fetchDevices,
  fetchHealth,
  forgotPassword,
  register,
  resendOtp,
  resetPassword,
  signOutDevice,
  verifyOtp,
} from "./auth-calls.ts";
import { profileKeys } from "./profile.ts";

export * from "./auth-calls.ts";

export const authKeys = {
  devices: () => ["auth", "devices"] as const,
  health: () => ["health"] as const,
};

export function devicesQuery() {
  return queryOptions({
    queryKey: authKeys.devices(),
    queryFn: ({ signal }) => fetchDevices(signal),
  });
}

/** Asked once per visit. */
export function healthQuery() {
  return queryOptions({
    queryKey: authKeys.health(),
    queryFn: ({ signal }) => fetchHealth(signal),
    staleTime: Infinity,
    retry: false,
  });
}

/** Whether the server keeps mails in its development outbox. */
export function useDevMailbox(): boolean {
  return useQuery({ ...healthQuery(), select: (health) => health.devMailbox }).data ?? false;
}

/** My signed-in devices. */
export function useDevices() {
  return useQuery({ ...devicesQuery(), select: (body) => body.sessions });
}

/** Signs one device out; the list is read again. */
export function useSignOutDevice(reactions: Reactions<unknown, Device> = {}) {
  return useInvalidatingMutation(
    (device: Device) => signOutDevice(device._id),
    [authKeys.devices()],
    reactions,
  );
}

export function useRegister(
  reactions: Reactions<Awaited<ReturnType<typeof register>>, RegisterBody>,
) {
  return useMutation({ ...reactions, mutationFn: (body: RegisterBody) => register(body) });
}

export function useForgotPassword(
  reactions: Reactions<Awaited<ReturnType<typeof forgotPassword>>, string>,
) {
  return useMutation({
    ...reactions,
    mutationFn: (address: string) => forgotPassword(address),
  });
}

type ResetBody = RequestOf<"POST /api/auth/reset-password">["body"];

export function useResetPassword(
  body: () => ResetBody,
  reactions: Reactions<Awaited<ReturnType<typeof resetPassword>>>,
) {
  return useMutation({ ...reactions, mutationFn: () => resetPassword(body()) });
}

/**
 * Checks a sign-in or credentials code, naming the browser's time zone. After a credentials
 * change the profile shows the new email, so it is read again.
 */
export function useVerifyOtp(
  userId: string,
  reactions: Reactions<Awaited<ReturnType<typeof verifyOtp>>, string>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    // The browser's zone: the account states times in it until its owner chooses one.
    mutationFn: (otp: string) => verifyOtp({ userId, code: otp, timeZone: browserTimeZone() }),
    onSuccess: async (...args) => {
      await reactions.onSuccess?.(...args);
      if (args[0].purpose === "update")
        void client.invalidateQueries({ queryKey: profileKeys.all });
    },
  });
}

export function useResendOtp(
  userId: string,
  reactions: Reactions<Awaited<ReturnType<typeof resendOtp>>>,
) {
  return useMutation({ ...reactions, mutationFn: () => resendOtp({ userId }) });
}
