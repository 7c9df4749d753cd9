import { describe, expect, it } from "vitest";
import { carriedDeadline } from "../../src/features/series/occurrences.ts";

const at = (iso: string) => new Date(iso);

describe("carriedDeadline", () => {
  // A weekly series in Vienna, Fridays at 18:00: on 27 March 2026 (CET, 17:00Z) and on 3 April
  // 2026 (CEST since 29 March, 16:00Z).
  const oldNext = at("2026-03-27T17:00:00Z");
  const newNext = at("2026-04-03T16:00:00Z");

  it("keeps the wall-clock time across a daylight saving change", () => {
    // Friday 12:00 CET before the start is Friday 12:00 CEST a week later: 167 hours on.
    expect(carriedDeadline(at("2026-03-27T11:00:00Z"), oldNext, newNext, "Europe/Vienna")).toEqual(
      at("2026-04-03T10:00:00Z"),
    );
  });

  it("keeps the days before the start (Thursday 20:00 stays Thursday 20:00)", () => {
    expect(carriedDeadline(at("2026-03-26T19:00:00Z"), oldNext, newNext, "Europe/Vienna")).toEqual(
      at("2026-04-02T18:00:00Z"),
    );
  });

  it("keeps a deadline after the start after it, and follows an every-two-days rule", () => {
    // Start Monday 07:30 New York, next on Wednesday; the cart closed Tuesday 09:00.
    const mon = at("2026-11-30T12:30:00Z");
    const wed = at("2026-12-02T12:30:00Z");
    expect(carriedDeadline(at("2026-12-01T14:00:00Z"), mon, wed, "America/New_York")).toEqual(
      at("2026-12-03T14:00:00Z"),
    );
  });

  it("moves a time the spring change skips forward, as a set deadline would", () => {
    // 02:30 on Sunday 22 March in Vienna exists (CET); a week later, 29 March, it does not.
    const next = carriedDeadline(
      at("2026-03-22T01:30:00Z"),
      at("2026-03-22T17:00:00Z"),
      at("2026-03-29T16:00:00Z"),
      "Europe/Vienna",
    );
    expect(next).toEqual(at("2026-03-29T01:30:00Z"));
  });
});
