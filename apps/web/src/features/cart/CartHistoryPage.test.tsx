import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import type { Cart } from "@cartner/contract";
import { json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { ben, makeCart, makeLine, member, products } from "../../test/test-carts.ts";

function openHistory(carts: Cart[]) {
  signInAs();
  stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    "GET /api/sessions/sync": () => json(200, { sessions: [], version: 0 }),
    "GET /api/carts/history": () => json(200, { carts }),
  });
  return renderApp("/cart-history");
}

function ended(cart: Cart, sessionName: string): Cart {
  return {
    ...cart,
    status: "completed",
    sessionId: { ...cart.sessionId, sessionName, status: "ended" },
  };
}

describe("cart history", () => {
  it("says so when there are no past carts", async () => {
    openHistory([]);
    expect(await screen.findByRole("heading", { level: 1, name: "Cart History" })).toBeVisible();
    expect(await screen.findByText("You have no past carts.")).toBeVisible();
  });

  it("lists past carts, the first open, read-only, with the receipt button disabled", async () => {
    const first = ended(
      makeCart([makeLine(testUser, products.mug, 2), makeLine(ben, products.tea, 1)], {
        members: [member(testUser, "creator"), member(ben, "participant")],
        updatedAt: "2025-05-03T10:00:00.000Z",
      }),
      "Picnic",
    );
    const second = ended(makeCart([makeLine(testUser, products.socks, 1)]), "Camping");
    const { user } = openHistory([second, first]);

    const picnic = await screen.findByRole("region", { name: "Picnic" });
    const camping = screen.getByRole("region", { name: "Camping" });
    // Newest first, the first open.
    const names = screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent);
    expect(names.slice(0, 2)).toEqual(["Picnic", "Camping"]);
    expect(within(picnic).getByRole("button", { name: "Items in Picnic" })).toHaveAttribute(
      "aria-expanded",
      "true",
    );
    expect(within(camping).getByRole("button", { name: "Items in Camping" })).toHaveAttribute(
      "aria-expanded",
      "false",
    );
    expect(within(picnic).getByText("3 items")).toBeVisible();
    expect(within(picnic).getAllByText("$32.48").length).toBeGreaterThan(0);
    expect(within(picnic).getByText("Stoneware Mug")).toBeVisible();
    // Read-only: no quantity or remove controls and no Remove column.
    expect(within(picnic).queryByRole("button", { name: /quantity|Remove/ })).toBeNull();
    expect(within(picnic).queryByRole("columnheader", { name: "Remove" })).toBeNull();
    expect(
      within(picnic).getByRole("button", { name: "Download Receipt (Coming Soon)" }),
    ).toBeDisabled();

    await user.click(within(camping).getByRole("button", { name: "Items in Camping" }));
    expect(within(camping).getByText("Wool Socks")).toBeVisible();
  });
});
