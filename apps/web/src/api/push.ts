import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PushSubscriptionBody } from "@cartner/contract";
import { ApiError, errorMessage } from "../lib/api.ts";
import { call } from "../lib/call.ts";
import type { Reactions } from "../lib/mutation-reactions.ts";

/*
 * Web Push on this device: the server's calls (GET /push/public-key, POST and DELETE
 * /push/subscriptions) and the browser's Push API around them.
 */

export function fetchPushPublicKey() {
  return call("GET /api/push/public-key", {}, { auth: false });
}

export function addPushSubscription(body: PushSubscriptionBody) {
  return call("POST /api/push/subscriptions", { body });
}

export function removePushSubscription(endpoint: string) {
  return call("DELETE /api/push/subscriptions", { body: { endpoint } });
}

/**
 * Where this device stands: the browser cannot (no service worker or Push API), the person
 * blocked notifications in the browser's settings, or it is on or off for this device.
 */
export type PushDeviceState = "unsupported" | "blocked" | "on" | "off";

export const pushKeys = {
  all: ["push"] as const,
  device: () => [...pushKeys.all, "device"] as const,
};

export function pushSupported(): boolean {
  return (
    typeof navigator !== "undefined" &&
    "serviceWorker" in navigator &&
    typeof window !== "undefined" &&
    "PushManager" in window &&
    "Notification" in window
  );
}

/** The VAPID key as pushManager.subscribe() takes it. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export const NO_WORKER_MESSAGE =
  "Notifications need the app's offline support, which has not started yet: reload the page and try again.";

export const PUSH_BLOCKED_MESSAGE =
  "Notifications are blocked for this site. Allow them in your browser's site settings, then try again.";

/**
 * What to tell someone whose change of this device's notifications failed: the server's own
 * message, ours, or for the browser's errors (such as "Registration failed - permission denied")
 * a sentence that says what to do, never the browser's words.
 */
export function pushFailureMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return errorMessage(error, fallback);
  // A DOMException (the Push API's errors) is not an Error everywhere: read its fields as they are.
  const { name = "", message = "" } = (error ?? {}) as { name?: unknown; message?: unknown };
  if (typeof name !== "string" || typeof message !== "string") return fallback;
  if (message === NO_WORKER_MESSAGE) return message;
  if (name === "NotAllowedError" || /permission denied/i.test(message)) {
    return PUSH_BLOCKED_MESSAGE;
  }
  return fallback;
}

/** The app's service worker (app/pwa.tsx registers it after the page loaded). */
async function registration(): Promise<ServiceWorkerRegistration> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const none = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(NO_WORKER_MESSAGE)), 10_000);
  });
  try {
    return await Promise.race([navigator.serviceWorker.ready, none]);
  } finally {
    clearTimeout(timer);
  }
}

/** What the server keeps of a subscription: its endpoint and keys. */
function bodyOf(subscription: PushSubscription): PushSubscriptionBody {
  const json = subscription.toJSON();
  return {
    endpoint: json.endpoint ?? subscription.endpoint,
    keys: { p256dh: json.keys?.p256dh ?? "", auth: json.keys?.auth ?? "" },
  };
}

async function deviceState(): Promise<PushDeviceState> {
  if (!pushSupported()) return "unsupported";
  if (Notification.permission === "denied") return "blocked";
  const worker = await navigator.serviceWorker.getRegistration();
  const subscription = await worker?.pushManager.getSubscription();
  if (!subscription || Notification.permission !== "granted") return "off";
  // The browser's subscription is told to the server again: whoever is signed in here now gets
  // its notifications (the server moves an endpoint to whoever posts it). Offline, the server
  // keeps what it had, and the device is still on.
  await addPushSubscription(bodyOf(subscription)).catch(() => undefined);
  return "on";
}

export function usePushDevice() {
  return useQuery(
    queryOptions({ queryKey: pushKeys.device(), queryFn: deviceState, staleTime: Infinity }),
  );
}

/** Asks the browser's permission, subscribes with the server's key and tells the server. */
async function turnOn(): Promise<PushDeviceState> {
  const permission = await Notification.requestPermission();
  if (permission === "denied") return "blocked";
  if (permission !== "granted") return "off";
  const worker = await registration();
  const { publicKey } = await fetchPushPublicKey();
  const subscription =
    (await worker.pushManager.getSubscription()) ??
    (await worker.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(publicKey),
    }));
  await addPushSubscription(bodyOf(subscription));
  return "on";
}

/** Tells the server to stop, then unsubscribes the browser. */
async function turnOff(): Promise<PushDeviceState> {
  const worker = await registration();
  const subscription = await worker.pushManager.getSubscription();
  if (subscription) {
    await removePushSubscription(subscription.endpoint);
    await subscription.unsubscribe();
  }
  return "off";
}

/** A change of this device's state: its answer is the new state (nothing to read again). */
function useDeviceChange(
  change: () => Promise<PushDeviceState>,
  reactions: Reactions<PushDeviceState>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: change,
    onSuccess: (...args) => {
      client.setQueryData(pushKeys.device(), args[0]);
      return reactions.onSuccess?.(...args);
    },
  });
}

export function useTurnOnPush(reactions: Reactions<PushDeviceState>) {
  return useDeviceChange(turnOn, reactions);
}

export function useTurnOffPush(reactions: Reactions<PushDeviceState>) {
  return useDeviceChange(turnOff, reactions);
}
