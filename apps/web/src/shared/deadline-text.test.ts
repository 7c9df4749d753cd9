import { describe, expect, it } from "vitest";
import {
  closedText,
  closesInText,
  formatDeadline,
  fromLocalInput,
  isClosed,
  reminderLabel,
  reminderStatus,
  timeLeft,
  toLocalInput,
} from "./deadline-text.ts";

const at = Date.parse("2026-11-27T17:00:00.000Z");

describe("a deadline in words", () => {
  it("shows one instant in each reader's own zone, named", () => {
    // docs/decisions/018-time-zones.md: one deadline, three readers.
    const closesAt = "2026-03-30T16:00:00.000Z";
    expect(formatDeadline(closesAt, "Europe/Vienna")).toMatch(/^Mon, Mar 30, 6:00\s?PM GMT\+2$/);
    expect(formatDeadline(closesAt, "America/New_York")).toMatch(/^Mon, Mar 30, 12:00\s?PM EDT$/);
    expect(formatDeadline(closesAt, "Asia/Tokyo")).toMatch(/^Tue, Mar 31, 1:00\s?AM GMT\+9$/);
    expect(closedText(closesAt, "America/New_York")).toMatch(
      /^The cart closed at Mon, Mar 30, 12:00\s?PM EDT\.$/,
    );
  });

  it("says how long is left, rounded down, and nothing once it has passed", () => {
    const iso = new Date(at).toISOString();
    expect(timeLeft(iso, at - 30_000)).toBe("in less than a minute");
    expect(timeLeft(iso, at - 25 * 60_000)).toBe("in 25 min");
    expect(timeLeft(iso, at - (3 * 60 + 59) * 60_000)).toBe("in 3 h");
    expect(timeLeft(iso, at - 47 * 3_600_000)).toBe("in 47 h");
    expect(timeLeft(iso, at - 80 * 3_600_000)).toBe("in 3 days");
    expect(closesInText(iso, at - 3 * 3_600_000)).toBe("closes in 3 h");
    expect(closesInText(iso, at)).toBeNull();
  });

  it("says which reminders are still to come, and that one went at once when it was set", () => {
    const closesAt = new Date(at).toISOString();
    const done =
      "Reminders 2 days, 1 h and 15 min before to members who have not marked themselves done.";
    // Set six minutes before: the 1 h and 15 min reminders' times had gone, the 2 days' too.
    const setAt = new Date(at - 6 * 60_000).toISOString();
    expect(
      reminderStatus(
        { closesAt, remindAt: [2880, 60, 15], remindersAhead: [], remindedOnSetAt: setAt },
        "Europe/Vienna",
      ),
    ).toEqual({
      plan: `${done} None still to come.`,
      sentAtOnce: expect.stringMatching(
        /^When the deadline was set, the 2 days, 1 h and 15 min reminders' times had already passed: one reminder went out at once, Fri, Nov 27, 5:54\s?PM GMT\+1\.$/,
      ),
    });
    // Set two hours before: the 15 min reminder is still to come.
    expect(
      reminderStatus({
        closesAt,
        remindAt: [2880, 60, 15],
        remindersAhead: [15],
        remindedOnSetAt: new Date(at - 2 * 3_600_000).toISOString(),
      }),
    ).toMatchObject({
      plan: `${done} Still to come: 15 min before.`,
      sentAtOnce: expect.stringMatching(/^When the deadline was set, the 2 days reminder's time/),
    });
    // Nothing gone: nothing more said.
    expect(
      reminderStatus({ closesAt, remindAt: [60], remindersAhead: [60], remindedOnSetAt: null }),
    ).toEqual({
      plan: "Reminders 1 h before to members who have not marked themselves done.",
      sentAtOnce: null,
    });
  });

  it("is closed from its instant on, or when the server says so", () => {
    const open = {
      closesAt: new Date(at).toISOString(),
      remindAt: [],
      autoCheckout: false,
      remindersAhead: [],
      remindedOnSetAt: null,
    };
    expect(isClosed({ ...open, locked: false }, at - 1)).toBe(false);
    expect(isClosed({ ...open, locked: false }, at)).toBe(true);
    expect(isClosed({ ...open, locked: true }, at - 60_000)).toBe(true);
    expect(isClosed(null, at)).toBe(false);
  });

  it("names reminders as the lobby offers them", () => {
    expect([10080, 2880, 1440, 180, 60, 15, 90].map(reminderLabel)).toEqual([
      "1 week",
      "2 days",
      "24 h",
      "3 h",
      "1 h",
      "15 min",
      "1 h 30 min",
    ]);
    const closesAt = new Date(at).toISOString();
    const done = "to members who have not marked themselves done.";
    expect(reminderStatus({ closesAt, remindAt: [60, 1440] }).plan).toBe(
      `Reminders 24 h and 1 h before ${done}`,
    );
    expect(reminderStatus({ closesAt, remindAt: [] })).toEqual({
      plan: "No reminders.",
      sentAtOnce: null,
    });
  });

  it("reads the date-and-time input in the browser's zone, and writes it back the same", () => {
    const iso = fromLocalInput("2026-11-27T18:30")!;
    expect(new Date(iso).getHours()).toBe(18);
    expect(new Date(iso).getMinutes()).toBe(30);
    expect(toLocalInput(iso)).toBe("2026-11-27T18:30");
    expect(fromLocalInput("")).toBeNull();
    expect(fromLocalInput("tomorrow")).toBeNull();
  });
});
