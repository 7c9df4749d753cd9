/** What the credentials page hands the code page, and what the code page says when it is done. */
export interface CredentialsOtpState {
  /** Where the code went: the new address for an email change. */
  email?: string;
  credentialsChange?: { email: boolean; password: boolean };
}

export function credentialsUpdatedMessage(change: { email: boolean; password: boolean }): string {
  if (change.email && change.password) return "Email and password updated successfully.";
  if (change.email) return "Email updated successfully.";
  return "Password updated successfully.";
}

export const MISSING_USER_ID_MESSAGE = "Missing user ID for verification. Please try again.";
