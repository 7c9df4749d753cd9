/**
 * "How you like to be paid" on the profile page: loads what is saved, checks the IBAN and link
 * before sending (the contract's rules), sends what the form shows, shows the server's
 * normalised answer, and names the field the server refused.
 */
import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import type { PaymentDetails } from "@cartner/contract";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { emptyProfile, makeProfile } from "./test-profile.ts";

const EMPTY: PaymentDetails = { iban: null, accountName: null, payLink: null, note: null };

function open(
  saved: PaymentDetails,
  put?: (body: unknown) => Response,
  { path = "/profile", profile = makeProfile() } = {},
) {
  signInAs();
  const sent: unknown[] = [];
  const mock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    "GET /api/profile/me": () => json(200, profile),
    "GET /api/users/me/payment-details": () => json(200, { details: saved }),
    "PUT /api/users/me/payment-details": ({ body }) => {
      sent.push(body);
      return put ? put(body) : json(200, { details: body });
    },
  });
  return { ...renderApp(path), mock, sent };
}

const card = () => screen.findByRole("region", { name: "How you like to be paid" });

describe("payment details card", () => {
  it("shows what is saved and saves the form as shown, then the server's form of it", async () => {
    const { user, sent } = open({ ...EMPTY, note: "Cash is fine" }, () =>
      json(200, {
        details: {
          iban: "DE89370400440532013000",
          accountName: "Ada Lovelace",
          payLink: null,
          note: "Cash is fine",
        },
      }),
    );
    const region = await card();
    const iban = await within(region).findByLabelText(/IBAN/);
    expect(within(region).getByLabelText(/Note/)).toHaveValue("Cash is fine");
    await user.type(iban, "de89 3704 0044 0532 0130 00");
    await user.type(within(region).getByLabelText(/Account name/), "Ada Lovelace");
    await user.click(within(region).getByRole("button", { name: "Save payment details" }));
    expect(await screen.findByText("Payment details saved.")).toBeVisible();
    expect(sent).toEqual([
      {
        iban: "de89 3704 0044 0532 0130 00",
        accountName: "Ada Lovelace",
        payLink: "",
        note: "Cash is fine",
      },
    ]);
    expect(iban).toHaveValue("DE89370400440532013000");
  });

  it("refuses a wrong IBAN and an http link before sending, naming each field", async () => {
    const { user, mock } = open(EMPTY);
    const region = await card();
    const iban = await within(region).findByLabelText(/IBAN/);
    const link = within(region).getByLabelText(/Pay link/);
    await user.type(iban, "DE88370400440532013000");
    await user.type(link, "http://paypal.me/ada");
    await user.click(within(region).getByRole("button", { name: "Save payment details" }));
    expect(await within(region).findByText(/check digits do not match/)).toBeVisible();
    expect(within(region).getByText(/Enter an https:\/\/ link/)).toBeVisible();
    expect(iban).toHaveAttribute("aria-invalid", "true");
    expect(iban).toHaveFocus();
    expect(link).toHaveAttribute("aria-invalid", "true");
    expect(callsTo(mock, "PUT /api/users/me/payment-details")).toHaveLength(0);
  });

  it("shows the server's refusal on its field", async () => {
    const { user } = open(EMPTY, () =>
      json(400, {
        message: "Invalid input",
        code: "VALIDATION_ERROR",
        fields: { accountName: "must contain a visible character" },
      }),
    );
    const region = await card();
    await user.type(await within(region).findByLabelText(/Account name/), "Ada");
    await user.click(within(region).getByRole("button", { name: "Save payment details" }));
    expect(await within(region).findByText("must contain a visible character")).toBeVisible();
    expect(within(region).getByLabelText(/Account name/)).toHaveAttribute("aria-invalid", "true");
  });

  it("is on the profile editor too, where an empty profile is sent: a new payee saves an IBAN there", async () => {
    const { user, sent } = open(EMPTY, undefined, { path: "/editme", profile: emptyProfile() });
    const region = await card();
    await user.type(await within(region).findByLabelText(/IBAN/), "DE89370400440532013000");
    await user.click(within(region).getByRole("button", { name: "Save payment details" }));
    expect(await screen.findByText("Payment details saved.")).toBeVisible();
    expect(sent).toHaveLength(1);
  });
});
