import { describe, expect, it } from "vitest";
import { inQuietHours, quietHoursEnd } from "../../src/features/notifications/index.ts";

const at = (iso: string) => new Date(iso);

describe("inQuietHours", () => {
  it("is never quiet without quiet hours", () => {
    expect(inQuietHours(null, at("2026-11-26T03:00:00Z"))).toBe(false);
  });

  it("holds from `from` (included) to `to` (excluded) within a day", () => {
    const q = { from: "13:00", to: "15:30", timeZone: "UTC" };
    expect(inQuietHours(q, at("2026-11-26T12:59:00Z"))).toBe(false);
    expect(inQuietHours(q, at("2026-11-26T13:00:00Z"))).toBe(true);
    expect(inQuietHours(q, at("2026-11-26T15:29:00Z"))).toBe(true);
    expect(inQuietHours(q, at("2026-11-26T15:30:00Z"))).toBe(false);
  });

  it("wraps midnight when `to` is before `from`", () => {
    const q = { from: "22:00", to: "07:00", timeZone: "UTC" };
    expect(inQuietHours(q, at("2026-11-26T21:59:00Z"))).toBe(false);
    expect(inQuietHours(q, at("2026-11-26T22:00:00Z"))).toBe(true);
    expect(inQuietHours(q, at("2026-11-26T23:30:00Z"))).toBe(true);
    expect(inQuietHours(q, at("2026-11-27T00:00:00Z"))).toBe(true);
    expect(inQuietHours(q, at("2026-11-27T06:59:00Z"))).toBe(true);
    expect(inQuietHours(q, at("2026-11-27T07:00:00Z"))).toBe(false);
    expect(inQuietHours(q, at("2026-11-27T12:00:00Z"))).toBe(false);
  });

  it("reads the clock of the quiet hours' time zone", () => {
    const q = { from: "22:00", to: "07:00", timeZone: "America/New_York" };
    // 03:30 UTC is 22:30 in New York (UTC-5 in November): quiet.
    expect(inQuietHours(q, at("2026-11-26T03:30:00Z"))).toBe(true);
    // 13:00 UTC is 08:00 in New York.
    expect(inQuietHours(q, at("2026-11-26T13:00:00Z"))).toBe(false);
    const tokyo = { from: "09:00", to: "17:00", timeZone: "Asia/Tokyo" };
    // 01:00 UTC is 10:00 in Tokyo.
    expect(inQuietHours(tokyo, at("2026-11-26T01:00:00Z"))).toBe(true);
    expect(inQuietHours(tokyo, at("2026-11-26T10:00:00Z"))).toBe(false);
  });

  it("follows daylight saving time", () => {
    const q = { from: "08:00", to: "09:00", timeZone: "Europe/Paris" };
    // 08:30 in Paris is 06:30 UTC in summer (UTC+2) and 07:30 UTC in winter (UTC+1).
    expect(inQuietHours(q, at("2026-07-01T06:30:00Z"))).toBe(true);
    expect(inQuietHours(q, at("2026-12-01T07:30:00Z"))).toBe(true);
    expect(inQuietHours(q, at("2026-12-01T06:30:00Z"))).toBe(false);
  });
});

describe("quietHoursEnd", () => {
  const end = (q: { from: string; to: string; timeZone: string }, iso: string) =>
    quietHoursEnd(q, at(iso))?.toISOString() ?? null;

  it("is null outside quiet hours, else the next `to` on their zone's clock", () => {
    const ben = { from: "21:00", to: "23:30", timeZone: "Europe/Berlin" };
    // 21:25 in Berlin (20:25Z): held until 23:30 there.
    expect(end(ben, "2026-11-26T20:25:00Z")).toBe("2026-11-26T22:30:00.000Z");
    expect(end(ben, "2026-11-26T20:25:59.999Z")).toBe("2026-11-26T22:30:00.000Z");
    expect(end(ben, "2026-11-26T22:30:00Z")).toBeNull();
    expect(end(ben, "2026-11-26T19:59:00Z")).toBeNull();
  });

  it("wraps midnight", () => {
    const night = { from: "22:00", to: "07:00", timeZone: "Europe/Berlin" };
    expect(end(night, "2026-11-26T22:30:00Z")).toBe("2026-11-27T06:00:00.000Z");
    expect(end(night, "2026-11-27T03:00:00Z")).toBe("2026-11-27T06:00:00.000Z");
  });

  it("counts a daylight saving change on the way", () => {
    // Berlin falls back in the night of 25 October 2026: 01:00 to 04:00 lasts four hours.
    const fall = { from: "01:00", to: "04:00", timeZone: "Europe/Berlin" };
    expect(end(fall, "2026-10-24T23:30:00Z")).toBe("2026-10-25T03:00:00.000Z");
    // New York springs forward on 8 March 2026: 07:00 EDT is 11:00Z, not 12:00Z.
    const ny = { from: "22:00", to: "07:00", timeZone: "America/New_York" };
    expect(end(ny, "2026-03-08T05:00:00Z")).toBe("2026-03-08T11:00:00.000Z");
  });

  it("ends where the clock jumps over a `to` that does not exist that night", () => {
    // 02:30 is skipped in Berlin on 29 March 2026: at 01:00Z the clock reads 03:00.
    const q = { from: "01:00", to: "02:30", timeZone: "Europe/Berlin" };
    expect(end(q, "2026-03-29T00:30:00Z")).toBe("2026-03-29T01:00:00.000Z");
  });
});
