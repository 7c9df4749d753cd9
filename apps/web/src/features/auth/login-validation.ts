import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, type LoginBody } from "@cartner/contract";
import type { FieldErrors } from "../../lib/form-errors.ts";

/*
 * The sign-in form's checks, without zod. /login is a first page for many visitors, and zod (about
 * 22 KB compressed, plus building the schemas) would load and run before the form could show. These
 * few lines catch what people actually mistype, with the same messages as LoginBodySchema, and are
 * never stricter than it (login-validation.test.ts holds them side by side). The rare address they
 * let through and the schema does not (a dot at the start of the name, say) is refused by the
 * server, which validates the body with the schema, and the form shows its message.
 */

/** A name, an @, and a domain with a dot and a letters-only ending; no spaces, one @. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)*\.[A-Za-z]{2,}$/;

const tooBig = (max: number) => `Too big: expected string to have <=${max} characters`;

export type LoginCheck =
  { success: true; data: LoginBody; errors: FieldErrors } | { success: false; errors: FieldErrors };

/**
 * Checks the sign-in form like LoginBodySchema (the email trimmed and lower-cased), with the
 * form's own "is required" messages first.
 */
export function checkLogin(input: { email: string; password: string }): LoginCheck {
  const errors: FieldErrors = {};
  const email = input.email.trim();
  if (email === "") errors.email = "Email is required";
  else if (email.length > EMAIL_MAX_LENGTH) errors.email = tooBig(EMAIL_MAX_LENGTH);
  else if (!EMAIL_SHAPE.test(email)) errors.email = "Enter a valid email address";

  if (input.password === "") errors.password = "Password is required";
  else if (input.password.length > PASSWORD_MAX_LENGTH) {
    errors.password = tooBig(PASSWORD_MAX_LENGTH);
  }

  if (Object.keys(errors).length > 0) return { success: false, errors };
  return {
    success: true,
    data: { email: email.toLowerCase(), password: input.password },
    errors,
  };
}
