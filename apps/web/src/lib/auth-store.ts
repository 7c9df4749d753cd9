import { useSyncExternalStore } from "react";
import type { User } from "@cartner/contract";
import {
  StorageKey,
  clearCredentials,
  parseUser,
  readRaw,
  setToken,
  setUser,
  subscribeStorage,
} from "./storage.ts";

/**
 * Who is signed in, as a tiny external store over local storage. Components read it with useAuth()
 * and re-render on login, logout, token refresh, and changes made in other tabs.
 */
export interface AuthState {
  token: string | null;
  user: User | null;
  isSignedIn: boolean;
}

let cachedKey: string | undefined;
let cached: AuthState = { token: null, user: null, isSignedIn: false };

function getSnapshot(): AuthState {
  const token = readRaw(StorageKey.token);
  const rawUser = readRaw(StorageKey.user);
  const key = `${token ?? ""}\u0000${rawUser ?? ""}`;
  if (key !== cachedKey) {
    cachedKey = key;
    const cleanToken = token && token.trim() !== "" ? token : null;
    cached = { token: cleanToken, user: parseUser(rawUser), isSignedIn: cleanToken !== null };
  }
  return cached;
}

function subscribe(onChange: () => void): () => void {
  return subscribeStorage((key) => {
    if (key === null || key === StorageKey.token || key === StorageKey.user) onChange();
  });
}

export function useAuth(): AuthState {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}

export function signIn(token: string, user: User): void {
  setToken(token);
  setUser(user);
}

export function signOutLocally(): void {
  clearCredentials();
}

/** "Ada Lovelace" → "Ada"; an empty name gives "there" ("Welcome, there"). */
export function firstName(name: string | undefined | null): string {
  const first = name?.trim().split(/\s+/)[0];
  return first && first !== "" ? first : "there";
}
