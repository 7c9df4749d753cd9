import { describe, expect, it } from "vitest";
import { cpuSlowdownFor } from "./cpu-slowdown.ts";

describe("the CPU slowdown calibrated to a host", () => {
  it("follows Lighthouse's documented ranges, so a slow host is throttled less", () => {
    expect(cpuSlowdownFor(2000)).toBe(6);
    expect(cpuSlowdownFor(1533)).toBe(4);
    expect(cpuSlowdownFor(1300)).toBe(3);
    expect(cpuSlowdownFor(1100)).toBe(2.6);
    expect(cpuSlowdownFor(800)).toBe(2);
    expect(cpuSlowdownFor(475)).toBe(1.5);
    expect(cpuSlowdownFor(100)).toBe(1);
  });

  it("never falls as the host gets faster", () => {
    for (let index = 0; index < 3000; index += 7) {
      expect(cpuSlowdownFor(index + 7)).toBeGreaterThanOrEqual(cpuSlowdownFor(index));
    }
  });
});
