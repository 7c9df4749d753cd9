import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { Member } from "@cartner/contract";
import { testUser } from "../../test/render-app.tsx";
import { ben, makeCart, makeLine, member } from "../../test/test-carts.ts";
import { makeSession } from "../../test/test-sessions.ts";
import { readiness } from "./CheckoutPanel.tsx";
import { SHARE_CHANGED_MESSAGE, SplitPanel } from "./SplitPanel.tsx";

const milk = { name: "Milk", price: 2.5 };

function panel(me: Partial<Member>) {
  const members = [
    { ...member(testUser, "creator"), ...me },
    { ...member(ben, "participant"), ready: true },
  ];
  const cart = makeCart([makeLine(testUser, milk, 2), makeLine(ben, milk)], { members });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <SplitPanel cart={cart} userId={testUser._id} role="creator" active />
    </QueryClientProvider>,
  );
}

describe("the ready mark in the split panel", () => {
  it("tells a member whose share changed why they are no longer done, with the button to mark again", () => {
    panel({ ready: false, shareChanged: true });
    expect(screen.getByRole("status")).toHaveTextContent(SHARE_CHANGED_MESSAGE);
    const button = screen.getByRole("button", { name: "I'm done" });
    expect(button).toHaveAttribute("aria-pressed", "false");
    expect(screen.getByText("Share changed")).toBeInTheDocument();
  });

  it('cuts a long name, never the "(you)" beside it, and lets the badges wrap', () => {
    panel({ ready: false, shareChanged: true });
    const you = screen.getByText("(you)");
    const row = you.closest("li")!;
    // Nothing between "(you)" and its row clips it: only the name itself is truncated.
    for (let el = you.parentElement; el && el !== row; el = el.parentElement) {
      expect(el.className).not.toMatch(/\b(truncate|overflow-hidden)\b/);
    }
    expect(you).toHaveClass("shrink-0");
    expect(screen.getAllByText("Ada Lovelace").find((el) => row.contains(el))).toHaveClass(
      "truncate",
    );
    expect(screen.getByText("Share changed").parentElement).toHaveClass("flex-wrap");
    expect(row).toHaveTextContent(/^Ada Lovelace \(you\)Share changed/);
  });

  it("says nothing of the kind while the mark holds, or was never set", () => {
    panel({ ready: true, shareChanged: false });
    expect(screen.queryByText(SHARE_CHANGED_MESSAGE)).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Done ✓" })).toHaveAttribute("aria-pressed", "true");
  });

  it("the checkout confirm lists a member whose share changed as not done, and why", () => {
    const session = makeSession({
      invitedUsers: [
        { ...member(testUser, "creator"), shareChanged: true },
        { ...member(ben, "participant"), ready: true },
      ],
    });
    expect(readiness(session)).toEqual({
      ready: ["Ben Brown"],
      waiting: ["Ada Lovelace (share changed since marking done)"],
    });
  });
});
