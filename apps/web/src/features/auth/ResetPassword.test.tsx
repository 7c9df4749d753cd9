import { describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp } from "../../test/render-app.tsx";

describe("forgot and reset password", () => {
  it("sends the code, then sets the new password and goes to sign in", async () => {
    const mock = stubFetch({
      "GET /api/conhealth": () => json(200, { status: "ok", db: "ok", devMailbox: false }),
      "POST /api/auth/forgot-password": () =>
        json(200, { message: "If an account uses this email, we sent it a 6-digit code." }),
      "POST /api/auth/reset-password": () => json(200, { message: "Changed" }),
    });
    const { user } = renderApp("/login");
    await user.click(await screen.findByRole("link", { name: "Forgot password?" }));
    // The page is its own chunk: the sign-in form stays until it has loaded.
    await screen.findByRole("heading", { name: "Forgot your password?" }, { timeout: 5000 });
    await user.type(screen.getByLabelText("Email"), "ann@example.com");
    await user.click(screen.getByRole("button", { name: "Send code" }));
    // The reset page is its own chunk too (a spinner shows while it loads).
    const notice = await screen.findByText(/If an account uses this email/, {}, { timeout: 5000 });
    expect(notice.closest("[role=status]")).not.toBeNull();
    expect(screen.getByLabelText("Email")).toHaveValue("ann@example.com");
    // Checked before sending: a short code and passwords that differ.
    await user.type(screen.getByLabelText("Code"), "12a3");
    await user.type(screen.getByLabelText("New password"), "fresh-orchard-88");
    await user.type(screen.getByLabelText("Confirm new password"), "fresh-orchard-89");
    await user.click(screen.getByRole("button", { name: "Set new password" }));
    expect(screen.getByText("The code is 6 digits")).toBeVisible();
    expect(screen.getByText("The passwords do not match")).toBeVisible();
    expect(callsTo(mock, "POST /api/auth/reset-password")).toHaveLength(0);
    await user.type(screen.getByLabelText("Code"), "456");
    await user.clear(screen.getByLabelText("Confirm new password"));
    await user.type(screen.getByLabelText("Confirm new password"), "fresh-orchard-88");
    await user.click(screen.getByRole("button", { name: "Set new password" }));
    expect(
      await screen.findByText("Password changed. Sign in with your new password."),
    ).toBeInTheDocument();
    expect(
      await screen.findByRole("heading", { name: "Welcome back" }, { timeout: 5000 }),
    ).toBeVisible();
    const [sent] = callsTo(mock, "POST /api/auth/reset-password");
    expect(JSON.parse(String(sent!.body))).toEqual({
      email: "ann@example.com",
      code: "123456",
      password: "fresh-orchard-88",
    });
    // No development mailbox on this server: no hint to it.
    expect(screen.queryByText("/dev/mailbox")).toBeNull();
  });
});
