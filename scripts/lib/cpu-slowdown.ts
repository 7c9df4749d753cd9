/**
 * The CPU slowdown that makes a host with this benchmark index behave like Lighthouse's reference
 * mobile device, by the ranges Lighthouse documents for calibrating it (docs/throttling.md, "CPU
 * throttling calculator"): 1300 and up is a high-end desktop, 3x at 1300 and one more per 233
 * (4x at 1533, 6x at 2000); 800 to 1300 is a mid-tier desktop, 2x to 3x; 150 to 800 a low-end
 * machine, 1x to 2x; below 150 no slowdown.
 */
export function cpuSlowdownFor(benchmarkIndex: number): number {
  const multiplier =
    benchmarkIndex >= 1300
      ? 3 + (benchmarkIndex - 1300) / 233
      : benchmarkIndex >= 800
        ? 2 + (benchmarkIndex - 800) / 500
        : benchmarkIndex >= 150
          ? 1 + (benchmarkIndex - 150) / 650
          : 1;
  return Math.round(multiplier * 10) / 10;
}
