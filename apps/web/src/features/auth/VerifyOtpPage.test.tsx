import { describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, testUser } from "../../test/render-app.tsx";
import { sanitizeOtp } from "./VerifyOtpPage.tsx";

function startVerification() {
  window.localStorage.setItem("userId", testUser._id);
}

describe("sanitizeOtp", () => {
  it("keeps digits only and at most six of them", () => {
    expect(sanitizeOtp("12a3-45 678")).toBe("123456");
    expect(sanitizeOtp("abc")).toBe("");
    expect(sanitizeOtp("０12")).toBe("12");
  });
});

describe("Verify OTP page", () => {
  it("strips non-digits, caps the code at 6 and enables Verify only when complete", async () => {
    startVerification();
    stubFetch({});
    const { user } = renderApp({ pathname: "/verify-otp", state: { email: "ada@example.com" } });
    const input = await screen.findByLabelText("Verification code");
    const verify = screen.getByRole("button", { name: "Verify" });

    expect(screen.getByText("ada@example.com")).toBeInTheDocument();
    expect(input).toHaveAttribute("inputmode", "numeric");
    expect(input).toHaveAttribute("autocomplete", "one-time-code");
    expect(verify).toBeDisabled();

    await user.type(input, "12ab-3");
    expect(input).toHaveValue("123");
    expect(verify).toBeDisabled();

    await user.type(input, "4 5x6789");
    expect(input).toHaveValue("123456");
    expect(verify).toBeEnabled();
  });

  it("explains a missing user id and links back to login", async () => {
    stubFetch({});
    renderApp("/verify-otp");
    expect(
      await screen.findByText("Missing user ID for verification. Please try again."),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to login" })).toHaveAttribute("href", "/login");
  });

  it("starts the resend countdown when the page opens", async () => {
    startVerification();
    stubFetch({});
    renderApp("/verify-otp");
    const resend = await screen.findByRole("button", { name: /resend code in (1:00|0:59)/i });
    expect(resend).toBeDisabled();
  });

  it.each([
    ["register", "/editme", "Edit Profile"],
    ["login", "/", "One cart for your group. A fair split for everyone."],
    ["update", "/profile", "Profile"],
    ["something-else", "/", "One cart for your group. A fair split for everyone."],
  ])("after a %s code, stores the session and goes to %s", async (purpose, path, heading) => {
    startVerification();
    const fetchMock = stubFetch({
      "POST /api/auth/verify-otp": () =>
        json(200, { message: "Verified", token: "fresh-token", user: testUser, purpose }),
      "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    });
    const { user } = renderApp("/verify-otp");

    await user.type(await screen.findByLabelText("Verification code"), "123456");
    await user.click(screen.getByRole("button", { name: "Verify" }));

    await waitFor(() => expect(window.location.pathname).toBe(path));
    expect(await screen.findByRole("heading", { level: 1, name: heading })).toBeVisible();
    // With the browser's time zone, which the account takes until its owner chooses one.
    expect(callsTo(fetchMock, "POST /api/auth/verify-otp")[0]?.body).toBe(
      JSON.stringify({
        userId: testUser._id,
        code: "123456",
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      }),
    );
    expect(window.localStorage.getItem("token")).toBe("fresh-token");
    expect(JSON.parse(window.localStorage.getItem("user") ?? "null")).toEqual(testUser);
    expect(window.localStorage.getItem("userId")).toBeNull();
    if (purpose === "update") {
      expect(await screen.findByText("Password updated successfully.")).toBeInTheDocument();
    } else {
      expect(screen.queryByText("Password updated successfully.")).not.toBeInTheDocument();
    }
  });

  it("creates a saved pendingSession after verification and goes to /sessions", async () => {
    startVerification();
    window.localStorage.setItem(
      "pendingSession",
      JSON.stringify({ sessionName: "Trip", sessionType: "Friends", participants: "3+" }),
    );
    const fetchMock = stubFetch({
      "POST /api/auth/verify-otp": () =>
        json(200, { message: "Verified", token: "fresh-token", user: testUser, purpose: "login" }),
      "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
      "POST /api/sessions": () =>
        json(201, { message: "Session created", session: { id: "s-9", _id: "s-9" } }),
      "GET /api/sessions/my": () => json(200, { sessions: [] }),
      "GET /api/sessions/myinvites": () => json(200, { invites: [] }),
      "GET /api/sessions/sync": () => json(200, { sessions: [], version: 0 }),
    });
    const { user } = renderApp("/verify-otp");

    await user.type(await screen.findByLabelText("Verification code"), "123456");
    await user.click(screen.getByRole("button", { name: "Verify" }));

    await waitFor(() => expect(window.location.pathname).toBe("/sessions"));
    expect(callsTo(fetchMock, "POST /api/sessions")[0]?.body).toBe(
      JSON.stringify({ sessionName: "Trip", sessionType: "Friends", participants: "3+" }),
    );
    expect(window.localStorage.getItem("pendingSession")).toBeNull();
    expect(window.localStorage.getItem(`activeSession:${testUser._id}`)).toBe("s-9");
    expect(await screen.findByText("Session created")).toBeInTheDocument();
  });

  it("still goes to /sessions, with SPEC's failure toast, when that creation fails", async () => {
    startVerification();
    window.localStorage.setItem(
      "pendingSession",
      JSON.stringify({ sessionName: "Trip", sessionType: "Solo", participants: "1" }),
    );
    stubFetch({
      "POST /api/auth/verify-otp": () =>
        json(200, {
          message: "Verified",
          token: "fresh-token",
          user: testUser,
          purpose: "register",
        }),
      "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
      "POST /api/sessions": () => json(400, { message: "Name taken", code: "VALIDATION_ERROR" }),
    });
    const { user } = renderApp("/verify-otp");
    await user.type(await screen.findByLabelText("Verification code"), "123456");
    await user.click(screen.getByRole("button", { name: "Verify" }));

    await waitFor(() => expect(window.location.pathname).toBe("/sessions"));
    expect(await screen.findByText("Session creation failed: Name taken")).toBeInTheDocument();
    expect(window.localStorage.getItem("pendingSession")).toBeNull();
  });

  it("shows the server's message when the code is wrong, and stays put", async () => {
    startVerification();
    stubFetch({
      "POST /api/auth/verify-otp": () =>
        json(400, { message: "Invalid or expired code", code: "INVALID_CODE" }),
    });
    const { user } = renderApp("/verify-otp");
    await user.type(await screen.findByLabelText("Verification code"), "000000");
    await user.click(screen.getByRole("button", { name: "Verify" }));

    // Inline under the field and in a toast.
    await waitFor(() => expect(screen.getAllByText("Invalid or expired code")).toHaveLength(2));
    expect(screen.getByLabelText("Verification code")).toHaveAttribute("aria-invalid", "true");
    expect(window.location.pathname).toBe("/verify-otp");
    expect(window.localStorage.getItem("token")).toBeNull();
    expect(window.localStorage.getItem("userId")).toBe(testUser._id);
  });

  it("falls back to 'OTP verification failed' when the server gives no message", async () => {
    startVerification();
    stubFetch({ "POST /api/auth/verify-otp": () => new Response("Bad gateway", { status: 502 }) });
    const { user } = renderApp("/verify-otp");
    await user.type(await screen.findByLabelText("Verification code"), "123456");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(screen.getAllByText("OTP verification failed")).toHaveLength(2));
  });
});
