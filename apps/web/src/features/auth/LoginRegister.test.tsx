import { describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, testUser } from "../../test/render-app.tsx";

const started = () =>
  json(200, { message: "We sent a code", userId: testUser._id, user: testUser });

describe("login", () => {
  it("stores the userId and goes to /verify-otp, telling where the code went", async () => {
    const fetchMock = stubFetch({ "POST /api/auth/login": started });
    const { user } = renderApp("/login");
    await user.type(await screen.findByLabelText("Email"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "secret-pass");
    await user.click(screen.getByRole("button", { name: "Sign in" }));

    await waitFor(() => expect(window.location.pathname).toBe("/verify-otp"));
    expect(window.localStorage.getItem("userId")).toBe(testUser._id);
    expect(await screen.findByText("ada@example.com")).toBeInTheDocument();
    expect(callsTo(fetchMock, "POST /api/auth/login")[0]?.body).toBe(
      JSON.stringify({ email: "ada@example.com", password: "secret-pass" }),
    );
  });

  it("requires both fields before calling the server", async () => {
    const fetchMock = stubFetch({});
    const { user } = renderApp("/login");
    await user.click(await screen.findByRole("button", { name: "Sign in" }));
    expect(screen.getByText("Email is required")).toBeInTheDocument();
    expect(screen.getByText("Password is required")).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveFocus();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("toasts 'Signin failed: {server message}'", async () => {
    stubFetch({
      "POST /api/auth/login": () =>
        json(401, { message: "Invalid email or password", code: "INVALID_CREDENTIALS" }),
    });
    const { user } = renderApp("/login");
    await user.type(await screen.findByLabelText("Email"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "wrong");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    await waitFor(() =>
      expect(
        screen.getAllByText("Signin failed: Invalid email or password").length,
      ).toBeGreaterThan(0),
    );
    expect(window.location.pathname).toBe("/login");
    expect(window.localStorage.getItem("userId")).toBeNull();
  });

  it("falls back to 'Something went wrong during login.' when the network fails", async () => {
    stubFetch({
      "POST /api/auth/login": () => Promise.reject(new TypeError("Failed to fetch")),
    });
    const { user } = renderApp("/login");
    await user.type(await screen.findByLabelText("Email"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "whatever");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    await waitFor(() =>
      expect(
        screen.getAllByText("Signin failed: Something went wrong during login.").length,
      ).toBeGreaterThan(0),
    );
  });
});

describe("register", () => {
  it("shows the server's field errors under the inputs and toasts 'Signup failed'", async () => {
    stubFetch({
      "POST /api/auth/register": () =>
        json(400, {
          message: "This password is too common. Choose another.",
          code: "WEAK_PASSWORD",
          fields: { password: "This password is too common. Choose another." },
        }),
    });
    const { user } = renderApp("/register");
    await user.type(await screen.findByLabelText("Name"), "Ada Lovelace");
    await user.type(screen.getByLabelText("Email"), "ada@example.com");
    await user.type(screen.getByLabelText(/^Password/), "password");
    await user.click(screen.getByRole("button", { name: "Create account" }));

    expect(
      await screen.findByText("Signup failed: This password is too common. Choose another."),
    ).toBeInTheDocument();
    const password = screen.getByLabelText(/^Password/);
    expect(password).toHaveAttribute("aria-invalid", "true");
    expect(password).toHaveAccessibleDescription(
      expect.stringContaining("This password is too common. Choose another."),
    );
  });

  it("stores the userId and goes to /verify-otp on success", async () => {
    stubFetch({
      "POST /api/auth/register": () =>
        json(201, { message: "Created", userId: testUser._id, user: testUser }),
    });
    const { user } = renderApp("/register");
    await user.type(await screen.findByLabelText("Name"), "Ada Lovelace");
    await user.type(screen.getByLabelText("Email"), "ada@example.com");
    await user.type(screen.getByLabelText(/^Password/), "analytical-engine");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    await waitFor(() => expect(window.location.pathname).toBe("/verify-otp"));
    expect(window.localStorage.getItem("userId")).toBe(testUser._id);
  });
});
