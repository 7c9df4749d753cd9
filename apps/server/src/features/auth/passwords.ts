import { ErrorCode } from "@cartner/contract";
import { hash, verify } from "@node-rs/argon2";
import { dictionary } from "@zxcvbn-ts/language-common";
import { AppError } from "../../lib/errors.ts";

/** OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane. */
const ARGON2_OPTIONS = {
  algorithm: 2, // Algorithm.Argon2id (a const enum, not importable under verbatimModuleSyntax)
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

const COMMON_PASSWORD_COUNT = 10_000;

// zxcvbn's list is ranked by frequency: its head is the most common passwords.
const commonPasswords = new Set(
  (dictionary["passwords-common"] as string[]).slice(0, COMMON_PASSWORD_COUNT),
);

export function isCommonPassword(password: string): boolean {
  return commonPasswords.has(password.toLowerCase());
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * A real hash to verify against when the email is unknown, so that answer takes as long as a
 * wrong password does and timing tells nothing about which emails have accounts.
 */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword("cartner-timing-equaliser");
  return dummyHash;
}

/** Refuses a password among the most common ones, with the answer every form shows for it. */
export function refuseCommonPassword(password: string): void {
  if (isCommonPassword(password)) {
    const message = "This password is too common. Choose another.";
    throw new AppError(400, ErrorCode.WEAK_PASSWORD, message, { fields: { password: message } });
  }
}
