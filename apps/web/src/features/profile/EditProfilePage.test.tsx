import { describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { emptyProfile, makeProfile } from "./test-profile.ts";

/** The server's side: `nameAfterSave` is the name it keeps once the profile is saved. */
function serve(post: () => Response = () => json(200, makeProfile()), nameAfterSave?: string) {
  signInAs();
  let name = testUser.name;
  return stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: { ...testUser, name } }),
    "GET /api/profile/me": () => json(200, makeProfile()),
    "POST /api/profile/me": () => {
      name = nameAfterSave ?? name;
      return post();
    },
  });
}

function sentForm(fetchMock: ReturnType<typeof stubFetch>): FormData {
  const body = callsTo(fetchMock, "POST /api/profile/me")[0]?.body;
  expect(body).toBeInstanceOf(FormData);
  return body as FormData;
}

describe("edit profile page", () => {
  it("prefills the fields and keeps them disabled until their box is ticked", async () => {
    serve();
    renderApp("/editme");
    const bio = await screen.findByLabelText("Bio");
    expect(bio).toHaveValue("I plan the group dinners.");
    expect(bio).toBeDisabled();
    expect(screen.getByLabelText("Languages")).toHaveValue("English, French");
    expect(screen.getByLabelText("Name")).toHaveValue("Ada Lovelace");
    expect(screen.getByLabelText("Avatar")).toHaveAttribute(
      "accept",
      "image/png,image/jpeg,image/webp,image/gif",
    );
  });

  it("lets a newcomer with an empty profile type at once: its empty fields start ticked", async () => {
    signInAs();
    const fetchMock = stubFetch({
      "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
      "GET /api/profile/me": () => json(200, emptyProfile()),
      "POST /api/profile/me": () => json(200, makeProfile({ bio: "Hello" })),
    });
    const { user } = renderApp("/editme");
    const bio = await screen.findByLabelText("Bio");
    expect(bio).toBeEnabled();
    for (const field of ["bio", "location", "occupation", "languages", "phone number"]) {
      expect(screen.getByRole("checkbox", { name: `Update ${field}` })).toBeChecked();
    }
    // The name came with sign-up and the avatar needs a file: those still wait for their box.
    expect(screen.getByLabelText("Name")).toBeDisabled();
    expect(screen.getByRole("checkbox", { name: "Update avatar" })).not.toBeChecked();

    await user.type(bio, "Hello");
    await user.type(screen.getByLabelText("Languages"), "English");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(callsTo(fetchMock, "POST /api/profile/me")).toHaveLength(1));
    const form = sentForm(fetchMock);
    expect(form.get("bio")).toBe("Hello");
    expect(form.get("languages")).toBe(JSON.stringify(["English"]));
    expect(form.has("name")).toBe(false);
    expect(form.has("avatar")).toBe(false);
  });

  it("sends only the ticked fields, languages as a JSON list, without a JSON content type", async () => {
    const fetchMock = serve(
      () => json(200, makeProfile({ bio: "New bio", user: { ...testUser, name: "Ada King" } })),
      "Ada King",
    );
    const { user } = renderApp("/editme");

    await user.click(await screen.findByRole("checkbox", { name: "Update bio" }));
    await user.clear(screen.getByLabelText("Bio"));
    await user.type(screen.getByLabelText("Bio"), "New bio");
    await user.click(screen.getByRole("checkbox", { name: "Update languages" }));
    await user.clear(screen.getByLabelText("Languages"));
    await user.type(screen.getByLabelText("Languages"), " English, , Yoruba ,");
    await user.click(screen.getByRole("checkbox", { name: "Update name" }));
    await user.clear(screen.getByLabelText("Name"));
    await user.type(screen.getByLabelText("Name"), "Ada King");
    // Edited, then unticked: not sent.
    await user.click(screen.getByRole("checkbox", { name: "Update location" }));
    await user.type(screen.getByLabelText("Location"), " Paris");
    await user.click(screen.getByRole("checkbox", { name: "Update location" }));
    const avatar = new File([new Uint8Array([137, 80, 78, 71])], "me.png", { type: "image/png" });
    await user.upload(screen.getByLabelText("Avatar"), avatar);
    await user.click(screen.getByRole("button", { name: "Save changes" }));

    await waitFor(() => expect(window.location.pathname).toBe("/profile"));
    const form = sentForm(fetchMock);
    expect([...form.keys()].sort()).toEqual(["bio", "languages", "name"]);
    expect(form.get("languages")).toBe('["English","Yoruba"]');
    expect(form.get("bio")).toBe("New bio");
    const headers = new Headers(callsTo(fetchMock, "POST /api/profile/me")[0]?.headers);
    expect(headers.get("Content-Type")).toBeNull();
    expect(await screen.findByText("Profile updated successfully!")).toBeInTheDocument();
    // The nav greets the user by the new name.
    expect(JSON.parse(window.localStorage.getItem("user") ?? "{}").name).toBe("Ada King");
    expect(await screen.findByText("Welcome, Ada")).toBeInTheDocument();
  });

  it("sends the avatar file when its box is ticked", async () => {
    const fetchMock = serve();
    const { user } = renderApp("/editme");
    await user.click(await screen.findByRole("checkbox", { name: "Update avatar" }));
    const avatar = new File([new Uint8Array([137, 80, 78, 71])], "me.png", { type: "image/png" });
    await user.upload(screen.getByLabelText("Avatar"), avatar);
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(callsTo(fetchMock, "POST /api/profile/me")).toHaveLength(1));
    const form = sentForm(fetchMock);
    expect([...form.keys()]).toEqual(["avatar"]);
    expect((form.get("avatar") as File).name).toBe("me.png");
  });

  it("sends nothing when no box is ticked, and says so", async () => {
    const fetchMock = serve();
    const { user } = renderApp("/editme");
    await user.click(await screen.findByRole("button", { name: "Save changes" }));
    expect(await screen.findByText(/tick the box of each field/i)).toBeInTheDocument();
    expect(callsTo(fetchMock, "POST /api/profile/me")).toHaveLength(0);
  });

  it("toasts a failure and shows the server's field errors", async () => {
    serve(() =>
      json(400, {
        message: "Validation failed",
        code: "VALIDATION_ERROR",
        fields: { phoneNumber: "Use digits, spaces and + ( ) - . only" },
      }),
    );
    const { user } = renderApp("/editme");
    await user.click(await screen.findByRole("checkbox", { name: "Update phone number" }));
    await user.type(screen.getByLabelText("Phone number"), "call me");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    expect(await screen.findByText("Failed to update profile.")).toBeInTheDocument();
    expect(screen.getByText("Use digits, spaces and + ( ) - . only")).toBeInTheDocument();
    expect(screen.getByLabelText("Phone number")).toHaveAttribute("aria-invalid", "true");
    expect(window.location.pathname).toBe("/editme");
  });
});
