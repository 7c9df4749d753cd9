import { describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { makeProfile } from "./test-profile.ts";

const OTP_MESSAGE = "We sent an OTP to confirm the change.";

function serve(patch: () => Response = () => json(200, { message: OTP_MESSAGE, userId: "u-1" })) {
  signInAs();
  return stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    "PATCH /api/auth/update-credentials": patch,
  });
}

describe("change credentials page", () => {
  it("submits nothing without a ticked box", async () => {
    const fetchMock = serve();
    const { user } = renderApp("/editpass");
    expect(screen.queryByLabelText("Current password")).not.toBeInTheDocument();
    await user.click(await screen.findByRole("button", { name: "Continue" }));
    expect(await screen.findByText(/Tick Change Email, Change Password/)).toBeInTheDocument();
    expect(callsTo(fetchMock, "PATCH /api/auth/update-credentials")).toHaveLength(0);
  });

  it("shows SPEC's validation messages and sends nothing until they are fixed", async () => {
    const fetchMock = serve();
    const { user } = renderApp("/editpass");

    await user.click(await screen.findByRole("checkbox", { name: "Change Email" }));
    await user.type(screen.getByLabelText("Current password"), "old-secret");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByText("Please enter a new email.")).toBeInTheDocument();
    expect(screen.getByLabelText("New email")).toHaveFocus();

    await user.click(screen.getByRole("checkbox", { name: "Change Email" }));
    await user.click(screen.getByRole("checkbox", { name: "Change Password" }));
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(
      await screen.findByText("Please enter both current and new password."),
    ).toBeInTheDocument();

    await user.type(screen.getByLabelText("New password"), "12345");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(
      await screen.findByText("New password must be at least 6 characters."),
    ).toBeInTheDocument();
    expect(callsTo(fetchMock, "PATCH /api/auth/update-credentials")).toHaveLength(0);
  });

  it("sends a password change, keeps the user id and, after the code, lands on /profile", async () => {
    signInAs();
    const full = stubFetch({
      "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
      "PATCH /api/auth/update-credentials": () =>
        json(200, { message: OTP_MESSAGE, userId: "u-1" }),
      "POST /api/auth/verify-otp": () =>
        json(200, { message: "Verified", token: "fresh-token", user: testUser, purpose: "update" }),
      "GET /api/profile/me": () => json(200, makeProfile()),
    });
    const { user } = renderApp("/editpass");

    await user.click(await screen.findByRole("checkbox", { name: "Change Password" }));
    await user.type(screen.getByLabelText("Current password"), "old-secret");
    await user.type(screen.getByLabelText("New password"), "new-secret");
    await user.click(screen.getByRole("button", { name: "Continue" }));

    await waitFor(() => expect(window.location.pathname).toBe("/verify-otp"));
    expect(callsTo(full, "PATCH /api/auth/update-credentials")[0]?.body).toBe(
      JSON.stringify({ currentPassword: "old-secret", password: "new-secret" }),
    );
    expect(window.localStorage.getItem("userId")).toBe("u-1");
    expect(
      await screen.findByText("OTP sent to your email. Verify to complete password change."),
    ).toBeInTheDocument();
    expect(await screen.findByText(testUser.email)).toBeInTheDocument();

    await user.type(screen.getByLabelText("Verification code"), "123456");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(window.location.pathname).toBe("/profile"));
    expect(await screen.findByText("Password updated successfully.")).toBeInTheDocument();
    expect(window.localStorage.getItem("token")).toBe("fresh-token");
  });

  it("tells the OTP page the new address and reports an email change", async () => {
    const changed = { ...testUser, email: "ada.new@example.com" };
    signInAs();
    // Token validation answers with the account as the server has it: changed once verified.
    let current = testUser;
    const fetchMock = stubFetch({
      "GET /api/auth/validate-token": () => json(200, { valid: true, user: current }),
      "PATCH /api/auth/update-credentials": () =>
        json(200, { message: OTP_MESSAGE, userId: "u-1" }),
      "POST /api/auth/verify-otp": () => {
        current = changed;
        return json(200, {
          message: "Verified",
          token: "fresh-token",
          user: changed,
          purpose: "update",
        });
      },
      "GET /api/profile/me": () => json(200, makeProfile({ user: changed })),
    });
    const { user } = renderApp("/editpass");

    await user.click(await screen.findByRole("checkbox", { name: "Change Email" }));
    await user.type(screen.getByLabelText("New email"), " ada.new@example.com ");
    await user.type(screen.getByLabelText("Current password"), "old-secret");
    await user.click(screen.getByRole("button", { name: "Continue" }));

    await waitFor(() => expect(window.location.pathname).toBe("/verify-otp"));
    expect(callsTo(fetchMock, "PATCH /api/auth/update-credentials")[0]?.body).toBe(
      JSON.stringify({ currentPassword: "old-secret", email: "ada.new@example.com" }),
    );
    expect(await screen.findByText("ada.new@example.com")).toBeInTheDocument();

    await user.type(screen.getByLabelText("Verification code"), "123456");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(window.location.pathname).toBe("/profile"));
    expect(await screen.findByText("Email updated successfully.")).toBeInTheDocument();
    expect(JSON.parse(window.localStorage.getItem("user") ?? "{}").email).toBe(changed.email);
  });

  it("toasts a missing user id and stays", async () => {
    serve(() => json(200, { message: "OTP sent" }));
    const { user } = renderApp("/editpass");
    await user.click(await screen.findByRole("checkbox", { name: "Change Password" }));
    await user.type(screen.getByLabelText("Current password"), "old-secret");
    await user.type(screen.getByLabelText("New password"), "new-secret");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(
      await screen.findByText("Missing user ID for verification. Please try again."),
    ).toBeInTheDocument();
    expect(window.location.pathname).toBe("/editpass");
  });

  it("shows the server's message on failure, and 'Something went wrong.' without one", async () => {
    serve(() =>
      json(403, {
        message: "Current password is incorrect",
        code: "FORBIDDEN",
        fields: { currentPassword: "Current password is incorrect" },
      }),
    );
    const { user } = renderApp("/editpass");
    await user.click(await screen.findByRole("checkbox", { name: "Change Password" }));
    await user.type(screen.getByLabelText("Current password"), "wrong-one");
    await user.type(screen.getByLabelText("New password"), "new-secret");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    await waitFor(() =>
      expect(screen.getAllByText("Current password is incorrect")).toHaveLength(2),
    );
    expect(screen.getByLabelText("Current password")).toHaveAttribute("aria-invalid", "true");
  });

  it("falls back to 'Something went wrong.'", async () => {
    serve(() => new Response("Bad gateway", { status: 502 }));
    const { user } = renderApp("/editpass");
    await user.click(await screen.findByRole("checkbox", { name: "Change Password" }));
    await user.type(screen.getByLabelText("Current password"), "old-secret");
    await user.type(screen.getByLabelText("New password"), "new-secret");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByText("Something went wrong.")).toBeInTheDocument();
  });
});
