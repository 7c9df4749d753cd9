import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { makeProfile } from "./test-profile.ts";

function serve(put: (timeZone: string) => Response) {
  signInAs();
  return stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    "GET /api/profile/me": () => json(200, makeProfile({ timeZone: "Europe/London" })),
    "PUT /api/users/me/time-zone": ({ body }) => put((body as { timeZone: string }).timeZone),
  });
}

const card = () => screen.getByRole("region", { name: "Your time zone" });

describe("the profile editor's time zone", () => {
  it("shows the account's zone and saves the one chosen from the IANA zones", async () => {
    const fetchMock = serve((timeZone) => json(200, { timeZone }));
    const { user } = renderApp("/editme");
    const select = await screen.findByLabelText("Time zone", { selector: "select" });
    expect(select).toHaveValue("Europe/London");
    expect(within(card()).getByText("Europe/London", { selector: "strong" })).toBeVisible();
    const options = within(select)
      .getAllByRole("option")
      .map((o) => o.getAttribute("value"));
    expect(options).toEqual(expect.arrayContaining(["UTC", "Europe/Berlin", "Asia/Tokyo"]));
    const save = within(card()).getByRole("button", { name: "Save time zone" });
    expect(save).toBeDisabled();

    await user.selectOptions(select, "Europe/Berlin");
    await user.click(save);
    await waitFor(() => expect(callsTo(fetchMock, "PUT /api/users/me/time-zone")).toHaveLength(1));
    expect(JSON.parse(String(callsTo(fetchMock, "PUT /api/users/me/time-zone")[0]!.body))).toEqual({
      timeZone: "Europe/Berlin",
    });
    expect(await screen.findByText("Time zone saved.")).toBeInTheDocument();
    expect(within(card()).getByText("Europe/Berlin", { selector: "strong" })).toBeVisible();
  });

  it("says what the server refused", async () => {
    serve(() =>
      json(400, {
        message: "Invalid input",
        code: "VALIDATION_ERROR",
        fields: { timeZone: "Not a known time zone" },
      }),
    );
    const { user } = renderApp("/editme");
    const select = await screen.findByLabelText("Time zone", { selector: "select" });
    await user.selectOptions(select, "Asia/Tokyo");
    await user.click(within(card()).getByRole("button", { name: "Save time zone" }));
    expect(await within(card()).findByText("Not a known time zone")).toBeVisible();
  });
});
