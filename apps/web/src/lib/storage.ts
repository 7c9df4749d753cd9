import {
  CHECKOUT_BY,
  FEE_MODES,
  SESSION_PARTICIPANT_OPTIONS,
  SESSION_TYPES,
  SPLIT_MODES,
  type CheckoutBy,
  type FeeMode,
  type SplitMode,
  type User,
} from "@cartner/contract";
import { isUser } from "./shapes.ts";

/**
 * The browser's local storage, under the keys the web client has always used. Every access goes
 * through this module: it never throws (storage can be disabled, full, or hold values another
 * version wrote) and it tells subscribers when a key changes, in this tab or (through the `storage`
 * event) in another one.
 */
export const StorageKey = {
  token: "token",
  user: "user",
  userId: "userId",
  pendingSession: "pendingSession",
  pendingInvite: "pendingInvite",
  currency: "currency",
} as const;
export type StorageKey = (typeof StorageKey)[keyof typeof StorageKey];

export type SessionType = (typeof SESSION_TYPES)[number];
export type SessionParticipants = (typeof SESSION_PARTICIPANT_OPTIONS)[number];

/** The create-session form a signed-out visitor filled in, kept until they have signed in. */
export interface PendingSession {
  sessionName: string;
  sessionType: SessionType;
  participants: SessionParticipants;
  passcode?: string;
  /** The type's preset choices as the form showed them (absent: the server applies the preset). */
  splitMode?: SplitMode;
  fees?: FeeMode;
  checkoutBy?: CheckoutBy;
}

type Listener = (key: StorageKey | null) => void;
const listeners = new Set<Listener>();

function notify(key: StorageKey | null): void {
  for (const listener of listeners) listener(key);
}

/** Called when one of our keys changes here or in another tab (key null: everything may have changed). */
export function subscribeStorage(listener: Listener): () => void {
  listeners.add(listener);
  if (listeners.size === 1 && typeof window !== "undefined") {
    window.addEventListener("storage", handleStorageEvent);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && typeof window !== "undefined") {
      window.removeEventListener("storage", handleStorageEvent);
    }
  };
}

const ourKeys = new Set<string>(Object.values(StorageKey));

function handleStorageEvent(event: StorageEvent): void {
  if (event.key === null) notify(null);
  else if (ourKeys.has(event.key)) notify(event.key as StorageKey);
}

export function readRaw(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeRaw(key: StorageKey, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage disabled or full: the app keeps working for this page view.
  }
  notify(key);
}

function readJson(key: StorageKey): unknown {
  const raw = readRaw(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

// currency: the deployment's, as the server last said (lib/format.ts checks it)

export function getStoredCurrency(): string | null {
  return readRaw(StorageKey.currency);
}

export function setStoredCurrency(code: string): void {
  writeRaw(StorageKey.currency, code);
}

// token

export function getToken(): string | null {
  const token = readRaw(StorageKey.token);
  return token && token.trim() !== "" ? token : null;
}

export function setToken(token: string): void {
  writeRaw(StorageKey.token, token);
}

// user

export function parseUser(raw: string | null): User | null {
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return isUser(value) ? storedUser(value) : null;
  } catch {
    return null;
  }
}

export function getUser(): User | null {
  return parseUser(readRaw(StorageKey.user));
}

/** What is kept of the user; a user stored before accounts had roles has none. */
function storedUser(user: User): User {
  const roles = Array.isArray(user.roles) ? user.roles.filter((role) => role === "operator") : [];
  return { _id: user._id, name: user.name, email: user.email, roles };
}

export function setUser(user: User): void {
  writeRaw(StorageKey.user, JSON.stringify(storedUser(user)));
}

/** Signs the browser out locally: token and user go, nothing else. */
export function clearCredentials(): void {
  writeRaw(StorageKey.token, null);
  writeRaw(StorageKey.user, null);
}

// userId, kept between login/register and the one-time code

export function getPendingUserId(): string | null {
  const id = readRaw(StorageKey.userId);
  return id && id.trim() !== "" ? id : null;
}

export function setPendingUserId(userId: string): void {
  writeRaw(StorageKey.userId, userId);
}

export function clearPendingUserId(): void {
  writeRaw(StorageKey.userId, null);
}

// pendingSession

function isOneOf<T extends string>(options: readonly T[], value: unknown): value is T {
  return typeof value === "string" && (options as readonly string[]).includes(value);
}

export function getPendingSession(): PendingSession | null {
  const value = readJson(StorageKey.pendingSession);
  if (typeof value !== "object" || value === null) return null;
  const record = value as Record<string, unknown>;
  const { sessionName, sessionType, participants, passcode } = record;
  if (typeof sessionName !== "string" || sessionName.trim() === "") return null;
  if (!isOneOf(SESSION_TYPES, sessionType)) return null;
  if (!isOneOf(SESSION_PARTICIPANT_OPTIONS, participants)) return null;
  const pending: PendingSession = { sessionName, sessionType, participants };
  if (typeof passcode === "string" && passcode !== "") pending.passcode = passcode;
  const { splitMode, fees, checkoutBy } = record;
  if (isOneOf(SPLIT_MODES, splitMode)) pending.splitMode = splitMode;
  if (isOneOf(FEE_MODES, fees)) pending.fees = fees;
  if (isOneOf(CHECKOUT_BY, checkoutBy)) pending.checkoutBy = checkoutBy;
  return pending;
}

export function setPendingSession(session: PendingSession): void {
  writeRaw(StorageKey.pendingSession, JSON.stringify(session));
}

export function clearPendingSession(): void {
  writeRaw(StorageKey.pendingSession, null);
}

// pendingInvite: an invite link a signed-out visitor opened, accepted once they have signed in

const INVITE_TOKEN = /^[A-Za-z0-9_-]{1,64}$/;

export function getPendingInvite(): string | null {
  const token = readRaw(StorageKey.pendingInvite);
  return token && INVITE_TOKEN.test(token) ? token : null;
}

export function setPendingInvite(token: string): void {
  writeRaw(StorageKey.pendingInvite, token);
}

export function clearPendingInvite(): void {
  writeRaw(StorageKey.pendingInvite, null);
}
