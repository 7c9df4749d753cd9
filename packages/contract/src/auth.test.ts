import { describe, expect, it } from "vitest";
import { LoginBodySchema, RegisterBodySchema, VerifyOtpBodySchema } from "./auth.ts";

describe("auth schemas", () => {
  it("trim and lower-case emails, so one inbox is one account", () => {
    const body = RegisterBodySchema.parse({
      name: " Ann ",
      email: " Ann@Example.COM ",
      password: "abcdef",
    });
    expect(body).toEqual({ name: "Ann", email: "ann@example.com", password: "abcdef" });
  });

  it("require passwords of at least 6 characters to register", () => {
    expect(
      RegisterBodySchema.safeParse({ name: "A", email: "a@b.co", password: "12345" }).success,
    ).toBe(false);
  });

  it("reject unknown keys", () => {
    expect(LoginBodySchema.safeParse({ email: "a@b.co", password: "x", admin: true }).success).toBe(
      false,
    );
  });

  it("accept only 6-digit codes", () => {
    const userId = "6f1c2a4e-8d1b-4c3a-9e2f-1a2b3c4d5e6f";
    expect(VerifyOtpBodySchema.safeParse({ userId, code: "012345" }).success).toBe(true);
    for (const code of ["12345", "1234567", "12a456", 123456, { $gt: "" }]) {
      expect(VerifyOtpBodySchema.safeParse({ userId, code }).success).toBe(false);
    }
  });
});
