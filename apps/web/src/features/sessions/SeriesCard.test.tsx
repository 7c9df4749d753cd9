import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { Session } from "@cartner/contract";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { makeCart } from "../../test/test-carts.ts";
import { ben, makeSession, member } from "../../test/test-sessions.ts";
import { ruleText, seriesSentence } from "./series-model.ts";

const WEEKLY = "FREQ=WEEKLY;INTERVAL=1;BYDAY=FR;BYHOUR=18;BYMINUTE=0";
const series = { rule: WEEKLY, timeZone: "Europe/Paris", nextAt: "2026-12-05T17:00:00.000Z" };

async function openLobby(first: Session) {
  signInAs();
  // The server's session: the series as last saved.
  let session = first;
  const cart = makeCart([], { members: session.invitedUsers });
  const fetchMock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    [`GET /api/sessions/${session._id}`]: () => json(200, { session }),
    "GET /api/sessions/sync": () => json(200, { sessions: [session], version: 1 }),
    "GET /api/sessions/my": () => json(200, { sessions: [session] }),
    "GET /api/sessions/myinvites": () => json(200, { invites: [] }),
    "POST /api/sessions/joinrequests": () => json(200, { requests: [] }),
    [`GET /api/sessions/${session._id}/cart`]: () => json(200, { cart }),
    [`PUT /api/sessions/${session._id}/series`]: ({ body }) => {
      session = {
        ...session,
        series: body
          ? { ...(body as { rule: string; timeZone: string }), nextAt: series.nextAt }
          : null,
      };
      return json(200, { session });
    },
  });
  const app = renderApp(`/session/${session._id}`);
  await screen.findByRole("heading", { level: 1, name: session.sessionName });
  /** The session as saved elsewhere (another tab, another device). */
  const saveElsewhere = (change: Partial<Session>) => {
    session = { ...session, ...change };
  };
  return { ...app, fetchMock, saveElsewhere };
}

describe("the series' words", () => {
  it("say the rule and the next start", () => {
    expect(seriesSentence(series)).toBe("Repeats every Friday at 18:00 · next 5 Dec");
    expect(ruleText("FREQ=DAILY;INTERVAL=3;BYHOUR=7;BYMINUTE=30")).toBe("every 3 days at 07:30");
    expect(ruleText("FREQ=DAILY;INTERVAL=1;BYHOUR=9;BYMINUTE=5")).toBe("every day at 09:05");
  });
});

describe("the Repeat card", () => {
  it("lets the creator make the session weekly in their time zone, then end the series", async () => {
    const session = makeSession({
      invitedUsers: [member(testUser, "creator"), member(ben, "participant")],
    });
    const { user, fetchMock } = await openLobby(session);
    const card = screen.getByTestId("series");
    expect(within(card).getByText("This session does not repeat.")).toBeInTheDocument();
    await user.click(within(card).getByRole("radio", { name: "Every week" }));
    await user.selectOptions(within(card).getByRole("combobox", { name: "On" }), "TU");
    fireEvent.change(within(card).getByLabelText("At"), { target: { value: "09:30" } });
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(within(card).getByText(`Time zone: ${zone}`)).toBeInTheDocument();
    await user.click(within(card).getByRole("button", { name: "Save" }));
    await waitFor(() =>
      expect(callsTo(fetchMock, `PUT /api/sessions/${session._id}/series`)).toHaveLength(1),
    );
    expect(
      JSON.parse(String(callsTo(fetchMock, `PUT /api/sessions/${session._id}/series`)[0]!.body)),
    ).toEqual({
      rule: "FREQ=WEEKLY;INTERVAL=1;BYDAY=TU;BYHOUR=9;BYMINUTE=30",
      timeZone: zone,
    });
    expect(await within(card).findByText(/Repeats every Tuesday at 09:30/)).toBeInTheDocument();

    await user.click(within(card).getByRole("button", { name: "End series" }));
    await waitFor(() =>
      expect(callsTo(fetchMock, `PUT /api/sessions/${session._id}/series`)).toHaveLength(2),
    );
    expect(
      JSON.parse(String(callsTo(fetchMock, `PUT /api/sessions/${session._id}/series`)[1]!.body)),
    ).toBeNull();
  });

  it("shows in its form a series saved elsewhere once the session is fetched again", async () => {
    const session = makeSession({
      invitedUsers: [member(testUser, "creator"), member(ben, "participant")],
    });
    const { queryClient, saveElsewhere } = await openLobby(session);
    const card = screen.getByTestId("series");
    expect(within(card).getByRole("radio", { name: "Off" })).toBeChecked();
    saveElsewhere({ series });
    await queryClient.invalidateQueries({ queryKey: ["sessions"] });
    expect(await within(card).findByText(/Repeats every Friday at 18:00/)).toBeInTheDocument();
    expect(within(card).getByRole("radio", { name: "Every week" })).toBeChecked();
    expect(within(card).getByRole("combobox", { name: "On" })).toHaveValue("FR");
  });

  it("shows a participant the rule and the links to the sessions before and after, without the form", async () => {
    const session = makeSession({
      creator: { _id: ben._id, name: ben.name, avatar: "" },
      invitedUsers: [member(ben, "creator"), member(testUser, "participant")],
      series,
      previousSessionId: "s-prev",
      nextSessionId: "s-next",
    });
    await openLobby(session);
    const card = screen.getByTestId("series");
    expect(
      within(card).getByText("Repeats every Friday at 18:00 · next 5 Dec", { exact: false }),
    ).toBeInTheDocument();
    expect(within(card).getByRole("link", { name: /Previous session/ })).toHaveAttribute(
      "href",
      "/session/s-prev",
    );
    expect(within(card).getByRole("link", { name: /Next session/ })).toHaveAttribute(
      "href",
      "/session/s-next",
    );
    expect(within(card).queryByRole("button", { name: "Save" })).not.toBeInTheDocument();
  });

  it("is not shown to a participant of a session that does not repeat", async () => {
    await openLobby(
      makeSession({
        creator: { _id: ben._id, name: ben.name, avatar: "" },
        invitedUsers: [member(ben, "creator"), member(testUser, "participant")],
      }),
    );
    expect(screen.queryByTestId("series")).not.toBeInTheDocument();
  });
});
