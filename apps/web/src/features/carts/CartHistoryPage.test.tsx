import { describe, expect, it, vi } from "vitest";
import { screen, within } from "@testing-library/react";
import type { Cart, Order } from "@cartner/contract";
import { makeOrder } from "../../test/test-orders.ts";
import { json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { ben, makeCart, makeLine, member, products } from "../../test/test-carts.ts";

function openHistory(carts: Cart[], orders: Order[] = []) {
  signInAs();
  stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    "GET /api/sessions/sync": () => json(200, { sessions: [], version: 0 }),
    "GET /api/carts/history": () => json(200, { carts, nextCursor: null }),
    "GET /api/orders": () => json(200, { orders, nextCursor: null }),
    "GET /api/orders/o-1/receipt.pdf": () =>
      new Response("%PDF-1.3 test", { headers: { "Content-Type": "application/pdf" } }),
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

  it("lists past carts, the first open, read-only; a receipt only where there is an order", async () => {
    const first = ended(
      makeCart([makeLine(testUser, products.mug, 2), makeLine(ben, products.tea, 1)], {
        members: [member(testUser, "creator"), member(ben, "participant")],
        updatedAt: "2025-05-03T10:00:00.000Z",
      }),
      "Picnic",
    );
    const second = ended(makeCart([makeLine(testUser, products.socks, 1)]), "Camping");
    const { user } = openHistory([second, first], [makeOrder({ sessionId: first.sessionId._id })]);

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
    // The cart's total is before fees and tax; the order's total, with them, is named as such.
    const header = within(picnic).getByText("Total", { selector: "dt" }).parentElement!;
    expect(header).toHaveTextContent("Total$32.48 before fees and tax");
    expect(await within(picnic).findByText("Order total")).toBeVisible();
    expect(within(picnic).getByText("Order total").parentElement).toHaveTextContent(
      "Order total$44.49 with fees and tax",
    );
    expect(within(camping).queryByText("Order total")).toBeNull();
    expect(within(picnic).getByText("Stoneware Mug")).toBeVisible();
    // Read-only: no quantity or remove controls and no Remove column.
    expect(within(picnic).queryByRole("button", { name: /quantity|Remove/ })).toBeNull();
    expect(within(picnic).queryByRole("columnheader", { name: "Remove" })).toBeNull();
    expect(await within(picnic).findByRole("link", { name: /Order CRT-000007/ })).toHaveAttribute(
      "href",
      "/orders/o-1",
    );
    const saved: string[] = [];
    const createObjectURL = vi.fn(() => "blob:receipt");
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL, revokeObjectURL: () => {} }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.download);
    });
    await user.click(within(picnic).getByRole("button", { name: "Download Receipt of Picnic" }));
    await vi.waitFor(() => expect(saved).toEqual(["cartner-CRT-000007.pdf"]));
    click.mockRestore();

    await user.click(within(camping).getByRole("button", { name: "Items in Camping" }));
    expect(within(camping).getByText("Wool Socks")).toBeVisible();
    // Ended without checkout: no receipt, and it says why.
    expect(within(camping).getByRole("button", { name: "Download Receipt" })).toBeDisabled();
    expect(within(camping).getByText("Ended without checkout: there is no receipt.")).toBeVisible();
  });
});
