import { describe, expect, it } from "vitest";
import { EMAIL_MAX_LENGTH, LoginBodySchema, PASSWORD_MAX_LENGTH } from "@cartner/contract";
import { issuesToFieldErrors, type FieldErrors } from "../../lib/form-errors.ts";
import { checkLogin } from "./login-validation.ts";

/** What LoginPage did with the schema: its own "is required" messages over the schema's issues. */
function withSchema(input: { email: string; password: string }) {
  const required: FieldErrors = {};
  if (input.email.trim() === "") required.email = "Email is required";
  if (input.password === "") required.password = "Password is required";
  const parsed = LoginBodySchema.safeParse(input);
  const errors = parsed.success
    ? required
    : { ...issuesToFieldErrors(parsed.error.issues), ...required };
  const success = parsed.success && Object.keys(errors).length === 0;
  return { success, data: success ? parsed.data : undefined, errors };
}

const emails = [
  "",
  "   ",
  "ada@example.com",
  "  Ada.Lovelace@Example.COM  ",
  "o'brien+shop@mail.example.co.uk",
  "first_last-1@sub-domain.example.org",
  "ada",
  "ada@",
  "@example.com",
  "ada@example",
  "ada@example.c",
  "ada@@example.com",
  ".ada@example.com",
  "ada.@example.com",
  "a..b@example.com",
  "ada@-example.com",
  "ada@example..com",
  "ada lovelace@example.com",
  "ada@exa mple.com",
  "adä@example.com",
  "ada@example.com.",
  "ada@123.com",
  "ada@example.123",
  `${"a".repeat(EMAIL_MAX_LENGTH - 12)}@example.com`,
  `${"a".repeat(EMAIL_MAX_LENGTH - 11)}@example.com`,
  `  ${"a".repeat(EMAIL_MAX_LENGTH - 12)}@example.com  `,
];
const passwords = [
  "",
  " ",
  "x",
  "plum-orchard-42",
  "p".repeat(PASSWORD_MAX_LENGTH),
  "p".repeat(PASSWORD_MAX_LENGTH + 1),
];

/** Addresses the light check lets through and the schema refuses: the server has the last word. */
const serverDecides = new Set([
  ".ada@example.com",
  "ada.@example.com",
  "a..b@example.com",
  "ada@-example.com",
  "adä@example.com",
]);

describe("checkLogin", () => {
  it.each(emails.flatMap((email) => passwords.map((password) => [email, password] as const)))(
    "answers as LoginBodySchema for %j / %j",
    (email, password) => {
      const expected = withSchema({ email, password });
      const actual = checkLogin({ email, password });
      if (serverDecides.has(email.trim())) {
        // Never stricter than the server: the email passes here, and only the schema refuses it.
        expect(actual.errors.email).toBeUndefined();
        expect(expected.errors.email).toBe("Enter a valid email address");
        return;
      }
      expect(actual.errors).toEqual(expected.errors);
      expect(actual.success).toBe(expected.success);
      if (actual.success) expect(actual.data).toEqual(expected.data);
    },
  );
});
