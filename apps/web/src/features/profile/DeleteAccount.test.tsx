import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { makeProfile } from "./test-profile.ts";

const shares = [
  {
    orderId: "o-12",
    number: "CRT-000012",
    amount: -7.98,
    counterparty: { _id: "u-ann", name: "Ann" },
  },
  {
    orderId: "o-9",
    number: "CRT-000009",
    amount: 3.1,
    counterparty: { _id: "u-ben", name: "Ben" },
  },
];

function serve() {
  signInAs();
  const bodies: unknown[] = [];
  const mock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    "GET /api/profile/me": () => json(200, makeProfile()),
    "DELETE /api/users/me": ({ body }) => {
      bodies.push(body);
      return (body as { acknowledgeUnsettled?: boolean }).acknowledgeUnsettled
        ? new Response(null, { status: 204 })
        : json(409, {
            message: "You have 2 unsettled shares on orders.",
            code: "UNSETTLED_SHARES",
            shares,
          });
    },
  });
  return { mock, bodies };
}

describe("deleting one's account", () => {
  it("lists the unsettled shares the server names, each linking to its order, and deletes only on a second yes", async () => {
    const { bodies } = serve();
    const { user } = renderApp("/profile");
    await user.click(await screen.findByRole("button", { name: "Delete my account" }));
    const form = screen.getByRole("form", { name: "Delete my account" });
    await user.type(within(form).getByLabelText("Your password"), "plum-orchard-42");
    await user.click(within(form).getByRole("button", { name: "Delete my account for good" }));

    const dialog = await screen.findByRole("dialog", { name: "You have 2 unsettled shares" });
    const listed = within(dialog).getAllByRole("link");
    expect(listed.map((a) => [a.textContent, a.getAttribute("href")])).toEqual([
      ["You owe Ann $7.98 on order CRT-000012", "/orders/o-12"],
      ["Ben owes you $3.10 on order CRT-000009", "/orders/o-9"],
    ]);
    expect(bodies).toEqual([{ password: "plum-orchard-42" }]);

    // Keeping the account sends nothing more; asking again and deleting anyway acknowledges.
    await user.click(within(dialog).getByRole("button", { name: "Keep my account" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    await user.click(within(form).getByRole("button", { name: "Delete my account for good" }));
    await user.click(
      within(await screen.findByRole("dialog")).getByRole("button", { name: "Delete anyway" }),
    );
    expect(await screen.findByText("Your account was deleted.")).toBeInTheDocument();
    expect(bodies.at(-1)).toEqual({ password: "plum-orchard-42", acknowledgeUnsettled: true });
    expect(window.location.pathname).toBe("/");
  });
});
