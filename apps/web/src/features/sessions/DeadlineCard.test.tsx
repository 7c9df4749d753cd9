import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { Deadline, Session } from "@cartner/contract";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { makeCart } from "../../test/test-carts.ts";
import { ben, makeSession, member, sessionAs } from "../../test/test-sessions.ts";
import {
  closedText,
  formatDeadline,
  localTimeZone,
  toLocalInput,
} from "../../shared/deadline-text.ts";

const HOUR = 60 * 60_000;

async function openLobby(session: Session) {
  signInAs();
  const state = { session };
  const fetchMock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    [`GET /api/sessions/${session._id}`]: () => json(200, { session: state.session }),
    "GET /api/sessions/sync": () => json(200, { sessions: [state.session], version: 1 }),
    "GET /api/sessions/my": () => json(200, { sessions: [state.session] }),
    "GET /api/sessions/myinvites": () => json(200, { invites: [] }),
    "POST /api/sessions/joinrequests": () => json(200, { requests: [] }),
    [`GET /api/sessions/${session._id}/cart`]: () =>
      json(200, { cart: makeCart([], { members: session.invitedUsers }) }),
    [`PUT /api/sessions/${session._id}/deadline`]: ({ body }) => {
      const b = body as { closesAt: string; remindAt: number[]; autoCheckout: boolean } | null;
      // As the server answers: reminders whose time has gone are one reminder sent now.
      const now = Date.now();
      const ahead = (m: number) => Date.parse(b!.closesAt) - m * 60_000 > now;
      state.session = {
        ...state.session,
        deadline: b && {
          ...b,
          remindAt: [...b.remindAt].sort((x, y) => y - x),
          locked: false,
          remindersAhead: b.remindAt.filter(ahead).sort((x, y) => y - x),
          remindedOnSetAt: b.remindAt.every(ahead) ? null : new Date(now).toISOString(),
        },
      };
      return json(200, { session: state.session });
    },
    [`POST /api/sessions/${session._id}/reopen`]: ({ body }) => {
      const { closesAt } = body as { closesAt: string };
      state.session = {
        ...state.session,
        deadline: { ...state.session.deadline!, closesAt, locked: false },
      };
      return json(200, { session: state.session });
    },
  });
  const app = renderApp(`/session/${session._id}`);
  await screen.findByRole("heading", { level: 1, name: session.sessionName });
  return { ...app, fetchMock, state };
}

const card = () => screen.getByTestId("deadline-card");
const box = (name: RegExp | string) => within(card()).getByRole("checkbox", { name });

function deadline(overrides: Partial<Deadline> = {}): Deadline {
  return {
    closesAt: new Date(Date.now() + 3 * HOUR + 5 * 60_000).toISOString(),
    remindAt: [1440, 60],
    autoCheckout: false,
    locked: false,
    remindersAhead: [1440, 60],
    remindedOnSetAt: null,
    ...overrides,
  };
}

describe("the lobby's Deadline card", () => {
  it("lets the creator set a deadline in their zone, with 24 h and 1 h reminders by default", async () => {
    const session = makeSession();
    const { user, fetchMock } = await openLobby(session);
    const input = within(card()).getByLabelText(/The cart closes at/);
    // The creator's own time zone is named beside the input.
    expect(within(card()).getByText(`(${localTimeZone()})`)).toBeVisible();
    expect(box("24 h")).toBeChecked();
    expect(box("1 h")).toBeChecked();
    for (const other of ["1 week", "2 days", "3 h", "15 min"]) expect(box(other)).not.toBeChecked();
    expect(box(/^Check out automatically at the deadline/)).not.toBeChecked();

    const local = toLocalInput(Date.now() + 26 * HOUR);
    fireEvent.change(input, { target: { value: local } });
    await user.click(box("1 week"));
    await user.click(box("1 h"));
    await user.click(box(/^Check out automatically at the deadline/));
    await user.click(within(card()).getByRole("button", { name: "Save deadline" }));

    await waitFor(() =>
      expect(callsTo(fetchMock, `PUT /api/sessions/${session._id}/deadline`)).toHaveLength(1),
    );
    const [put] = callsTo(fetchMock, `PUT /api/sessions/${session._id}/deadline`);
    // The local date and time, as the instant it is in this browser's zone.
    expect(JSON.parse(String(put!.body))).toEqual({
      closesAt: new Date(local).toISOString(),
      remindAt: [1440, 10080],
      autoCheckout: true,
    });
    // The saved deadline is shown, with how long is left.
    const closesAt = new Date(local).toISOString();
    expect(
      await within(card()).findByText(`The cart closes ${formatDeadline(closesAt)}`),
    ).toBeVisible();
    expect(within(card()).getByText(/\(closes in (25|26) h\)/)).toBeVisible();
    expect(within(card()).getByText("It is checked out automatically then.")).toBeVisible();
  });

  it("says at once when a reminder's time had gone: one went out, and which are still to come", async () => {
    const session = makeSession();
    const { user } = await openLobby(session);
    // Six minutes ahead with the 1 h and 15 min reminders.
    fireEvent.change(within(card()).getByLabelText(/The cart closes at/), {
      target: { value: toLocalInput(Date.now() + 6 * 60_000 + 30_000) },
    });
    await user.click(box("24 h"));
    await user.click(box("15 min"));
    await user.click(within(card()).getByRole("button", { name: "Save deadline" }));
    const status = await within(card()).findByTestId("reminder-status");
    await waitFor(() =>
      expect(status).toHaveTextContent(
        "Reminders 1 h and 15 min before to members who have not marked themselves done. None still to come.",
      ),
    );
    expect(status).toHaveTextContent(
      /When the deadline was set, the 1 h and 15 min reminders' times had already passed: one reminder went out at once, /,
    );
  });

  it("tells members which reminders are still to come", async () => {
    const session = sessionAs("participant", {
      deadline: deadline({ remindAt: [1440, 60], remindersAhead: [60] }),
    });
    await openLobby(session);
    expect(within(card()).getByTestId("reminder-status")).toHaveTextContent(
      "Reminders 24 h and 1 h before to members who have not marked themselves done. Still to come: 1 h before.",
    );
  });

  it("offers at most five reminders, and refuses a time that has passed", async () => {
    const session = makeSession();
    const { user, fetchMock } = await openLobby(session);
    for (const name of ["1 week", "2 days", "3 h"]) await user.click(box(name));
    // Five chosen: the sixth cannot be.
    expect(box("15 min")).toBeDisabled();
    await user.click(box("3 h"));
    expect(box("15 min")).toBeEnabled();

    fireEvent.change(within(card()).getByLabelText(/The cart closes at/), {
      target: { value: toLocalInput(Date.now() - HOUR) },
    });
    await user.click(within(card()).getByRole("button", { name: "Save deadline" }));
    expect(await within(card()).findByText("Pick a time in the future.")).toBeVisible();
    expect(callsTo(fetchMock, `PUT /api/sessions/${session._id}/deadline`)).toHaveLength(0);
  });

  it("lets the creator move or remove a deadline", async () => {
    const session = makeSession({
      deadline: deadline({ remindAt: [2880, 15], remindersAhead: [15] }),
    });
    const { user, fetchMock } = await openLobby(session);
    expect(within(card()).getByText(/\(closes in 3 h\)/)).toBeVisible();
    expect(within(card()).getByText(/Reminders 2 days and 15 min before/)).toBeVisible();
    // The form starts from the saved deadline.
    expect(within(card()).getByLabelText(/The cart closes at/)).toHaveValue(
      toLocalInput(session.deadline!.closesAt),
    );
    expect(box("2 days")).toBeChecked();
    expect(box("24 h")).not.toBeChecked();

    await user.click(within(card()).getByRole("button", { name: "Remove deadline" }));
    await waitFor(() =>
      expect(callsTo(fetchMock, `PUT /api/sessions/${session._id}/deadline`)).toHaveLength(1),
    );
    const [put] = callsTo(fetchMock, `PUT /api/sessions/${session._id}/deadline`);
    expect(put!.body).toBe("null");
    await waitFor(() => expect(screen.queryByTestId("deadline-notice")).toBeNull());
  });

  it("shows members the deadline in their zone, without the form", async () => {
    const session = sessionAs("participant", { deadline: deadline({ autoCheckout: true }) });
    await openLobby(session);
    expect(
      within(card()).getByText(`The cart closes ${formatDeadline(session.deadline!.closesAt)}`),
    ).toBeVisible();
    expect(within(card()).queryByRole("button", { name: "Save deadline" })).toBeNull();
    expect(within(card()).queryByRole("checkbox")).toBeNull();
  });

  it("shows everyone a closed cart; the creator checks out or reopens it until a new time", async () => {
    const closesAt = new Date(Date.now() - 10 * 60_000).toISOString();
    const session = makeSession({
      invitedUsers: [member(testUser, "creator"), member(ben, "participant")],
      deadline: deadline({ closesAt, locked: true }),
    });
    const { user, fetchMock } = await openLobby(session);
    const notice = within(card()).getByTestId("deadline-notice");
    expect(within(notice).getByText(closedText(closesAt))).toBeVisible();
    expect(within(notice).getByRole("link", { name: "Check out" })).toHaveAttribute(
      "href",
      `/session-summary/${session._id}`,
    );
    // No editor while closed: reopening is the way on.
    expect(within(card()).queryByRole("button", { name: "Save deadline" })).toBeNull();
    const until = toLocalInput(Date.now() + 2 * HOUR);
    fireEvent.change(within(notice).getByLabelText(/Reopen until/), { target: { value: until } });
    await user.click(within(notice).getByRole("button", { name: "Reopen" }));
    await waitFor(() =>
      expect(callsTo(fetchMock, `POST /api/sessions/${session._id}/reopen`)).toHaveLength(1),
    );
    const [post] = callsTo(fetchMock, `POST /api/sessions/${session._id}/reopen`);
    expect(JSON.parse(String(post!.body))).toEqual({ closesAt: new Date(until).toISOString() });
    expect(await within(card()).findByText(/\(closes in (1|2) h\)/)).toBeVisible();
  });
});
