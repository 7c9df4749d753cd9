import { describe, expect, it } from "vitest";
import { inQuietHours } from "../../src/features/notifications/index.ts";

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
