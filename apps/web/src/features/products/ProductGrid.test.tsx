import { describe, expect, it } from "vitest";
import { renderHook, waitFor } from "@testing-library/react";
import { GRID_BATCH, useProgressiveCount } from "./ProductGrid.tsx";

describe("useProgressiveCount", () => {
  it("starts with the first row and grows a batch at a time to the whole list", async () => {
    const seen: number[] = [];
    const { result } = renderHook(() => {
      const count = useProgressiveCount(20, 3);
      if (seen.at(-1) !== count) seen.push(count);
      return count;
    });
    expect(seen[0]).toBe(3);
    await waitFor(() => expect(result.current).toBe(20));
    expect(seen).toEqual([3, 3 + GRID_BATCH, 3 + 2 * GRID_BATCH, 20]);
  });

  it("draws a later, longer list whole once the first one is complete", async () => {
    const { result, rerender } = renderHook(({ total }) => useProgressiveCount(total, 3), {
      initialProps: { total: 5 },
    });
    await waitFor(() => expect(result.current).toBe(5));
    rerender({ total: 40 });
    expect(result.current).toBe(40);
  });

  it("draws the whole list at once on Back or Forward, where the browser restores the scroll", () => {
    // What the router records when the browser goes back to the current path.
    window.dispatchEvent(new PopStateEvent("popstate"));
    const { result } = renderHook(() => useProgressiveCount(20, 3));
    expect(result.current).toBe(20);
  });
});
