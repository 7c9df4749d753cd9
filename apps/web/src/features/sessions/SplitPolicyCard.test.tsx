import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { Session } from "@cartner/contract";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { makeCart, makeLine } from "../../test/test-carts.ts";
import { ben, cleo, makeSession, member } from "../../test/test-sessions.ts";

const vic = { _id: "d0000000-0000-4000-8000-000000000004", name: "Vic Viewer" };

async function openLobby(session: Session) {
  signInAs();
  // Cleo added a $37.93 line, the cart's only one.
  const cart = makeCart([makeLine(cleo, { name: "Groceries", price: 37.93 })], {
    members: session.invitedUsers,
  });
  const fetchMock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    [`GET /api/sessions/${session._id}`]: () => json(200, { session }),
    "GET /api/sessions/sync": () => json(200, { sessions: [session], version: 1 }),
    "GET /api/sessions/my": () => json(200, { sessions: [session] }),
    "GET /api/sessions/myinvites": () => json(200, { invites: [] }),
    "POST /api/sessions/joinrequests": () => json(200, { requests: [] }),
    [`GET /api/sessions/${session._id}/cart`]: () => json(200, { cart }),
    [`PUT /api/sessions/${session._id}/split-policy`]: ({ body }) =>
      json(200, { session: { ...session, splitPolicy: body } }),
  });
  const app = renderApp(`/session/${session._id}`);
  await screen.findByRole("heading", { level: 1, name: session.sessionName });
  return { ...app, fetchMock };
}

describe("the split policy form", () => {
  it("sends every paying member's weight, the untouched ones as the 100 it shows", async () => {
    const session = makeSession({
      invitedUsers: [
        member(testUser, "creator"),
        member(ben, "participant"),
        member(cleo, "participant"),
        member(vic, "viewer"),
      ],
      // A weight left over for someone who is a viewer now: not shown, so not sent.
      splitPolicy: { mode: "by_adder", weights: { [vic._id]: 30 }, fees: "proportional" },
    });
    const { user, fetchMock } = await openLobby(session);
    const card = screen.getByTestId("split-policy");
    await user.click(within(card).getByRole("radio", { name: /By weights/ }));
    const boxes = within(card).getAllByRole("spinbutton");
    expect(boxes.map((box) => (box as HTMLInputElement).value)).toEqual(["100", "100", "100"]);
    fireEvent.change(within(card).getByRole("spinbutton", { name: cleo.name }), {
      target: { value: "50" },
    });

    // The preview, with fees and tax: totals of exactly $17.316, $17.316 and $8.658 (Cleo half of
    // each adult), each rounded once to within a cent, adding up to the cart's $43.29; the tie
    // between the two adults is drawn by the cart's id. (Rounding subtotal, fees and tax apart
    // gave Cleo $8.67, 1.2 cents over.) When a missing weight meant 0, Cleo carried it all.
    const preview = within(card).getByRole("list", { name: "Preview of the shares" });
    expect(
      within(preview)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["Ada Lovelace$17.32", "Ben Brown$17.31", "Cleo Chu$8.66"]);

    await user.click(within(card).getByRole("button", { name: "Save split policy" }));
    await waitFor(() =>
      expect(callsTo(fetchMock, `PUT /api/sessions/${session._id}/split-policy`)).toHaveLength(1),
    );
    const [put] = callsTo(fetchMock, `PUT /api/sessions/${session._id}/split-policy`);
    expect(JSON.parse(String(put!.body))).toEqual({
      mode: "weights",
      weights: { [testUser._id]: 100, [ben._id]: 100, [cleo._id]: 50 },
      fees: "proportional",
    });
  });
});
