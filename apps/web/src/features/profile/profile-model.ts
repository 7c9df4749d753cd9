import {
  AVATAR_MAX_BYTES,
  AVATAR_TYPES,
  ErrorCode,
  PASSWORD_MIN_LENGTH,
  type Profile,
  type UnsettledShare,
} from "@cartner/contract";
import { ApiError } from "../../lib/api.ts";
import { formatMoney } from "../../lib/format.ts";

/** The shares a refused deletion listed (409 UNSETTLED_SHARES), or null for any other error. */
export function unsettledSharesOf(error: unknown): UnsettledShare[] | null {
  if (!(error instanceof ApiError) || error.code !== ErrorCode.UNSETTLED_SHARES) return null;
  const shares = (error.body as { shares?: unknown } | null)?.shares;
  if (!Array.isArray(shares)) return null;
  return shares.filter(
    (s): s is UnsettledShare =>
      typeof s === "object" &&
      s !== null &&
      typeof s.orderId === "string" &&
      typeof s.number === "string" &&
      typeof s.amount === "number" &&
      typeof s.counterparty?.name === "string",
  );
}

/** "You owe Ann $7.98 on order CRT-000012", "Ben owes you $3.10 on order CRT-000009". */
export function unsettledSentence(share: UnsettledShare): string {
  const amount = formatMoney(Math.abs(share.amount));
  const who = share.counterparty.name;
  return share.amount < 0
    ? `You owe ${who} ${amount} on order ${share.number}`
    : `${who} owes you ${amount} on order ${share.number}`;
}

/** Languages are split on commas and trimmed; empty entries are dropped. */
export function splitLanguages(value: string): string[] {
  return value
    .split(",")
    .map((language) => language.trim())
    .filter((language) => language !== "");
}

/** A profile with no bio, location, occupation or languages counts as empty. */
export function isProfileEmpty(
  profile: Pick<Profile, "bio" | "location" | "occupation" | "languages">,
): boolean {
  return (
    profile.bio.trim() === "" &&
    profile.location.trim() === "" &&
    profile.occupation.trim() === "" &&
    profile.languages.every((language) => language.trim() === "")
  );
}

/** "2024" from an ISO date, or "" when the date is unreadable. */
export function joinedYear(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : String(date.getFullYear());
}

export const PROFILE_TEXT_FIELDS = [
  "name",
  "bio",
  "location",
  "languages",
  "occupation",
  "phoneNumber",
] as const;
export type ProfileTextField = (typeof PROFILE_TEXT_FIELDS)[number];
export type ProfileField = ProfileTextField | "avatar";

export interface ProfileDraft {
  values: Record<ProfileTextField, string>;
  avatar: File | null;
  /** Which fields the user ticked; only these are sent. */
  enabled: Record<ProfileField, boolean>;
}

/** The multipart body of POST /profile/me: only the ticked fields (null when none is ticked). */
export function buildProfileFormData(draft: ProfileDraft): FormData | null {
  const form = new FormData();
  let any = false;
  for (const field of PROFILE_TEXT_FIELDS) {
    if (!draft.enabled[field]) continue;
    const value = draft.values[field];
    form.append(
      field,
      field === "languages" ? JSON.stringify(splitLanguages(value)) : value.trim(),
    );
    any = true;
  }
  if (draft.enabled.avatar && draft.avatar) {
    form.append("avatar", draft.avatar, draft.avatar.name);
    any = true;
  }
  return any ? form : null;
}

export const AVATAR_ACCEPT = AVATAR_TYPES.join(",");

/** Client-side checks of the chosen avatar (the server checks the content and size again). */
export function avatarProblem(file: File): string | undefined {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) {
    return "Choose a PNG, JPEG, WebP or GIF image.";
  }
  if (file.size > AVATAR_MAX_BYTES) {
    return `The image is too large (at most ${AVATAR_MAX_BYTES / (1024 * 1024)} MB).`;
  }
  return undefined;
}

// Change credentials: what must hold before anything is sent

export const CredentialMessage = {
  nothingChecked: "Tick Change Email, Change Password, or both, to choose what to change.",
  emailRequired: "Please enter a new email.",
  passwordsRequired: "Please enter both current and new password.",
  passwordTooShort: `New password must be at least ${PASSWORD_MIN_LENGTH} characters.`,
  currentRequired: "Please enter your current password.",
} as const;

export interface CredentialsDraft {
  changeEmail: boolean;
  changePassword: boolean;
  email: string;
  currentPassword: string;
  newPassword: string;
}

export type CredentialsErrors = Partial<
  Record<"form" | "email" | "currentPassword" | "password", string>
>;

export function validateCredentials(draft: CredentialsDraft): CredentialsErrors {
  const errors: CredentialsErrors = {};
  if (!draft.changeEmail && !draft.changePassword) {
    errors.form = CredentialMessage.nothingChecked;
    return errors;
  }
  if (draft.changeEmail && draft.email.trim() === "")
    errors.email = CredentialMessage.emailRequired;
  if (draft.changePassword) {
    if (draft.currentPassword === "" || draft.newPassword === "") {
      const message = CredentialMessage.passwordsRequired;
      if (draft.currentPassword === "") errors.currentPassword = message;
      if (draft.newPassword === "") errors.password = message;
    } else if (draft.newPassword.length < PASSWORD_MIN_LENGTH) {
      errors.password = CredentialMessage.passwordTooShort;
    }
  } else if (draft.currentPassword === "") {
    errors.currentPassword = CredentialMessage.currentRequired;
  }
  return errors;
}

/** What the OTP page is told when the code is for a credentials change. */
