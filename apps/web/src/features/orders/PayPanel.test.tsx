/**
 * The pay panel on an order, for a member who owes (Ben): the payee's details with copy buttons,
 * the pay link, and in EUR the EPC QR code of the exact payload the server gave. The qrcode
 * library is replaced by one that writes its input into the image, so the test reads what would
 * be drawn (jsdom has no canvas to draw on).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import type { PayInfo } from "@cartner/contract";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { makeOrder, withShareStatus } from "../../test/test-orders.ts";
import { ben } from "../../test/test-sessions.ts";
import { getCurrency, setCurrency } from "../../lib/format.ts";
import { groupedIban } from "./PayPanel.tsx";

const drawn = vi.hoisted(() => [] as { text: string; level: unknown }[]);
vi.mock("qrcode", () => ({
  toDataURL: async (text: string, options: { errorCorrectionLevel?: string }) => {
    drawn.push({ text, level: options.errorCorrectionLevel });
    return `data:text/plain,${encodeURIComponent(text)}`;
  },
}));

const benUser = { ...testUser, _id: ben._id, name: ben.name, email: "ben@example.com" };
const IBAN = "DE89370400440532013000";
const EPC = ["BCD", "002", "1", "SCT", "", "Ada L.", IBAN, "EUR14.84", "", "", "CRT-000007"].join(
  "\n",
);

function payInfo(overrides: Partial<PayInfo> = {}): PayInfo {
  return {
    payee: { _id: testUser._id, name: testUser.name },
    details: { iban: IBAN, accountName: "Ada L.", payLink: "https://paypal.me/ada", note: null },
    amount: 14.84,
    reference: "CRT-000007",
    epcQr: EPC,
    ...overrides,
  };
}

function open(info: PayInfo | null, currency = "EUR", order = makeOrder()) {
  signInAs(benUser);
  const mock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: benUser }),
    "GET /api/sessions/sync": () => json(200, { sessions: [], version: 0 }),
    "GET /api/config": () => json(200, { currency }),
    "GET /api/orders/o-1": () => json(200, { order }),
    "GET /api/orders/o-1/pay-info": () =>
      info ? json(200, info) : json(404, { message: "Order not found", code: "NOT_FOUND" }),
  });
  return { ...renderApp("/orders/o-1"), mock };
}

/**
 * Once the server has said its currency the page is drawn again from scratch (the layout keys it
 * by currency): an element found before that is gone. The order may come first, so the tests that
 * do not look at the redraw itself wait for it before looking at the page.
 */
const drawnIn = (currency: string) => waitFor(() => expect(getCurrency()).toBe(currency));

afterEach(() => {
  setCurrency("USD");
  drawn.length = 0;
});

describe("pay panel", () => {
  it("shows the payee's details in the server's currency and copies each one", async () => {
    const { user } = open(payInfo());
    // The page redraws in the server's currency once it has said (USD until then): the share
    // on the order page and the amount to pay.
    await screen.findByText(groupedIban(IBAN));
    await waitFor(() => expect(screen.getAllByText("€14.84")).toHaveLength(2));
    const panel = screen.getByRole("region", { name: "Pay Ada Lovelace" });
    expect(within(panel).getByText("€14.84")).toBeVisible();
    expect(within(panel).getByText(groupedIban(IBAN))).toBeVisible();
    expect(within(panel).getByText("CRT-000007")).toBeVisible();

    await user.click(within(panel).getByRole("button", { name: "Copy the iban" }));
    expect(await navigator.clipboard.readText()).toBe(IBAN);
    expect(await screen.findByText("IBAN copied.")).toBeVisible();
    await user.click(within(panel).getByRole("button", { name: "Copy the amount" }));
    expect(await navigator.clipboard.readText()).toBe("14.84");
    await user.click(within(panel).getByRole("button", { name: "Copy the reference" }));
    expect(await navigator.clipboard.readText()).toBe("CRT-000007");

    const link = within(panel).getByRole("link", { name: /Pay with paypal\.me/ });
    expect(link).toHaveAttribute("href", "https://paypal.me/ada");
    expect(link).toHaveAttribute("rel", "noopener noreferrer");
  });

  it("draws the EPC QR code of the server's exact payload, at error correction M", async () => {
    open(payInfo());
    await screen.findAllByText("€14.84");
    const qr = await screen.findByTestId("epc-qr");
    expect(decodeURIComponent(qr.getAttribute("src")!.slice("data:text/plain,".length))).toBe(EPC);
    expect(drawn.length).toBeGreaterThan(0);
    for (const call of drawn) expect(call).toEqual({ text: EPC, level: "M" });
    expect(qr).toHaveAccessibleName(
      "QR code for your banking app: €14.84 to Ada Lovelace, reference CRT-000007",
    );
  });

  it("draws no code without a payload, and says when the payee gave no details", async () => {
    open(
      payInfo({
        details: { iban: null, accountName: null, payLink: null, note: null },
        epcQr: null,
      }),
      "USD",
    );
    expect(await screen.findByText(/hasn't said how they like to be paid/)).toBeVisible();
    expect(screen.queryByTestId("epc-qr")).toBeNull();
    expect(screen.queryByRole("button", { name: "Copy the iban" })).toBeNull();
    expect(screen.getByRole("button", { name: "Copy the amount" })).toBeVisible();
  });

  it("says there is nothing left to pay when the server gives no amount and no details", async () => {
    open(
      payInfo({
        details: { iban: null, accountName: null, payLink: null, note: null },
        amount: 0,
        epcQr: null,
      }),
    );
    await drawnIn("EUR");
    const panel = await screen.findByRole("region", { name: "Pay Ada Lovelace" });
    expect(
      await within(panel).findByText("You have nothing left to pay Ada Lovelace on this order."),
    ).toBeVisible();
    expect(within(panel).queryByText(/hasn't said how they like to be paid/)).toBeNull();
    expect(within(panel).queryByRole("button")).toBeNull();
  });

  it("offers a retry when the details do not load", async () => {
    const { user, mock } = open(null);
    await drawnIn("EUR");
    const panel = await screen.findByRole("region", { name: "Pay Ada Lovelace" });
    expect(await within(panel).findByText("Order not found")).toBeVisible();
    await user.click(within(panel).getByRole("button", { name: /try again/i }));
    expect(callsTo(mock, "GET /api/orders/o-1/pay-info").length).toBeGreaterThan(1);
  });

  it("is not shown once the share is settled, nor to the payee", async () => {
    open(payInfo(), "EUR", withShareStatus(makeOrder(), ben._id, "confirmed"));
    await drawnIn("EUR");
    expect(await screen.findByRole("heading", { level: 1, name: "CRT-000007" })).toBeVisible();
    expect(screen.queryByRole("region", { name: "Pay Ada Lovelace" })).toBeNull();
  });
});
