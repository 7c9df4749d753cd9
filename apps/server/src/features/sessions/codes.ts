import crypto from "node:crypto";
import { SESSION_CODE_LENGTH } from "@cartner/contract";

/** No 0/O, 1/I/L: codes are read aloud and typed from screens. */
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

export function newSessionCode(): string {
  let code = "";
  for (let i = 0; i < SESSION_CODE_LENGTH; i++) code += ALPHABET[crypto.randomInt(ALPHABET.length)];
  return code;
}

/** Constant-time string comparison (passcodes). */
export function sameSecret(a: string, b: string): boolean {
  const ha = crypto.createHash("sha256").update(a).digest();
  const hb = crypto.createHash("sha256").update(b).digest();
  return crypto.timingSafeEqual(ha, hb);
}

/** A fresh passcode when the creator rotates the code: six characters of the same alphabet. */
export function newPasscode(): string {
  let passcode = "";
  for (let i = 0; i < 6; i++)
    passcode += ALPHABET[crypto.randomInt(ALPHABET.length)]!.toLowerCase();
  return passcode;
}
