import { describe, expect, it, vi } from "vitest";
import { render, screen, within } from "@testing-library/react";
import { testUser } from "../../test/render-app.tsx";
import { SessionCard } from "./SessionCard.tsx";
import { ben, cleo, makeSession, member, sessionAs } from "../../test/test-sessions.ts";
import type { Session } from "@cartner/contract";

function renderCard(session: Session) {
  const onLeave = vi.fn();
  const onEnd = vi.fn();
  render(<SessionCard session={session} userId={testUser._id} onLeave={onLeave} onEnd={onEnd} />);
  const card = screen.getByRole("article", { name: session.sessionName });
  return { card, onLeave, onEnd };
}

/** The visible labels of the card's links and buttons, in order. */
const buttonNames = (card: HTMLElement) =>
  Array.from(card.querySelectorAll("a, button")).map((el) => el.textContent?.trim());

describe("SessionCard", () => {
  it("shows title, type, money and up to 3 avatars then +N", () => {
    const people = [1, 2, 3, 4].map((n) => ({ _id: `u-${n}`, name: `Person ${n}` }));
    const session = makeSession({
      sessionName: "Weekend groceries",
      sessionType: "Family",
      budget: 150,
      cart: { _id: "c", totalPrice: 42.5, itemCount: 3 },
      invitedUsers: [
        member(testUser, "creator"),
        ...people.map((p) => member(p, "participant")),
        member(cleo, "pending"),
      ],
    });
    const { card } = renderCard(session);
    expect(within(card).getByRole("heading", { name: "Weekend groceries" })).toBeVisible();
    expect(within(card).getByText("Family")).toBeVisible();
    const avatars = within(card).getByRole("list", { name: /^Members:/ });
    expect(within(avatars).getAllByRole("img")).toHaveLength(3);
    // Five members (the pending request does not count): three avatars and '+2'.
    expect(within(avatars).getByText("+2")).toBeInTheDocument();
    expect(within(card).getByText("Budget").nextSibling).toHaveTextContent("$150.00");
    expect(within(card).getByText("Cart Total").nextSibling).toHaveTextContent("$42.50");
    expect(within(card).getByText("Savings").nextSibling).toHaveTextContent("$107.50");
  });

  it("shows no +N for three members, and 'No budget' without a budget", () => {
    const session = makeSession({
      invitedUsers: [
        member(testUser, "creator"),
        member(ben, "participant"),
        member(cleo, "viewer"),
      ],
    });
    const { card } = renderCard(session);
    expect(within(card).getAllByRole("img")).toHaveLength(3);
    expect(within(card).queryByText(/^\+\d/)).not.toBeInTheDocument();
    expect(within(card).getByText("Savings").nextSibling).toHaveTextContent("No budget");
  });

  it("gives the creator View, Edit and End, but not Leave", async () => {
    const session = makeSession({ sessionName: "Mine" });
    const { card, onEnd } = renderCard(session);
    expect(buttonNames(card)).toEqual(["View", "Edit", "End"]);
    expect(within(card).getByRole("link", { name: /^View/ })).toHaveAttribute(
      "href",
      `/session/${session._id}`,
    );
    expect(within(card).getByRole("link", { name: /^Edit/ })).toHaveAttribute(
      "href",
      `/session/edit/${session._id}`,
    );
    within(card).getByRole("button", { name: "End Mine" }).click();
    expect(onEnd).toHaveBeenCalledWith(session);
  });

  it.each(["participant", "viewer"] as const)("gives a %s View and Leave only", (role) => {
    const session = sessionAs(role, { sessionName: `As ${role}` });
    const { card, onLeave } = renderCard(session);
    expect(buttonNames(card)).toEqual(["View", "Leave"]);
    within(card)
      .getByRole("button", { name: `Leave As ${role}` })
      .click();
    expect(onLeave).toHaveBeenCalledWith(session);
  });

  it("offers only View on an ended session", () => {
    const { card } = renderCard(makeSession({ status: "ended" }));
    expect(buttonNames(card)).toEqual(["View"]);
    expect(within(card).getByText("Ended")).toBeVisible();
  });
});
