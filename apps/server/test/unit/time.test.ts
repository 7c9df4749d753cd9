/**
 * lib/time.ts: every time the server sends a person is on their zone's wall clock and names the
 * zone, across daylight saving changes, whatever zone the server process runs in.
 */
import { describe, expect, it } from "vitest";
import { utcInstant, zonedDateTime, zonedInstant, zonedIso } from "../../src/lib/time.ts";

describe("zonedInstant", () => {
  it("says the wall time in the reader's zone, with the zone's name", () => {
    // The report's case: 20:25 UTC is 21:25 in Berlin in November (CET, UTC+1).
    const at = "2026-11-26T20:25:00Z";
    expect(zonedInstant(at, "Europe/Berlin")).toMatch(
      /^21:25 \(Europe\/Berlin\) on Thursday,? 26 November 2026$/,
    );
    expect(zonedInstant(at, "America/New_York")).toMatch(/^15:25 \(America\/New_York\) on /);
    // Past midnight in Kolkata (UTC+5:30): the next day.
    expect(zonedInstant(at, "Asia/Kolkata")).toMatch(/^01:55 \(Asia\/Kolkata\) on Friday/);
    expect(utcInstant(at)).toMatch(/^20:25 \(UTC\) on Thursday/);
  });

  it("follows a daylight saving change: the same wall time is another instant", () => {
    // Berlin springs forward at 01:00Z on 29 March 2026 (02:00 CET becomes 03:00 CEST).
    expect(zonedInstant("2026-03-29T00:59:00Z", "Europe/Berlin")).toMatch(/^01:59 /);
    expect(zonedInstant("2026-03-29T01:00:00Z", "Europe/Berlin")).toMatch(/^03:00 /);
    // And falls back at 01:00Z on 25 October 2026: 02:30 happens twice, an hour apart.
    expect(zonedDateTime("2026-10-25T00:30:00Z", "Europe/Berlin")).toBe(
      "25 Oct 2026, 02:30 (Europe/Berlin)",
    );
    expect(zonedDateTime("2026-10-25T01:30:00Z", "Europe/Berlin")).toBe(
      "25 Oct 2026, 02:30 (Europe/Berlin)",
    );
    expect(zonedIso("2026-10-25T00:30:00Z", "Europe/Berlin")).toBe("2026-10-25T02:30:00+02:00");
    expect(zonedIso("2026-10-25T01:30:00Z", "Europe/Berlin")).toBe("2026-10-25T02:30:00+01:00");
    // UTC's own short way, to the second, midnight as 00.
    expect(zonedIso("2026-11-26T00:00:07.900Z", "UTC")).toBe("2026-11-26T00:00:07Z");
    expect(zonedIso("2026-11-26T23:59:59.999Z", "UTC")).toBe("2026-11-26T23:59:59Z");
  });

  it("reads a zone this runtime does not know as UTC, named so", () => {
    expect(zonedDateTime("2026-11-26T20:25:00Z", "Mars/Olympus")).toBe("26 Nov 2026, 20:25 (UTC)");
  });
});

describe("zonedIso", () => {
  it("is ISO 8601 to the second with the zone's offset, the same instant; Z in UTC", () => {
    for (const [zone, expected] of [
      ["UTC", "2026-11-26T20:25:07Z"],
      ["Europe/Berlin", "2026-11-26T21:25:07+01:00"],
      ["America/New_York", "2026-11-26T15:25:07-05:00"],
      ["Asia/Kolkata", "2026-11-27T01:55:07+05:30"],
    ] as const) {
      const text = zonedIso("2026-11-26T20:25:07.900Z", zone);
      expect(text).toBe(expected);
      expect(Date.parse(text)).toBe(Date.parse("2026-11-26T20:25:07Z"));
    }
  });
});
