import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { PriceRange } from "./filters.ts";
import { PriceRangeSlider } from "./PriceRangeSlider.tsx";

function Harness({
  initial,
  onCommit,
}: {
  initial: PriceRange;
  onCommit: (r: PriceRange) => void;
}) {
  const [value, setValue] = useState<PriceRange>(initial);
  return (
    <PriceRangeSlider
      value={value}
      onCommit={(range) => {
        onCommit(range);
        setValue(range);
      }}
    />
  );
}

function setup(initial: PriceRange) {
  const onCommit = vi.fn<(range: PriceRange) => void>();
  const user = userEvent.setup();
  render(<Harness initial={initial} onCommit={onCommit} />);
  return {
    user,
    onCommit,
    min: screen.getByRole("slider", { name: "Minimum price" }),
    max: screen.getByRole("slider", { name: "Maximum price" }),
  };
}

describe("PriceRangeSlider", () => {
  it("has two labelled thumbs from 0 to 1000 with money values", () => {
    const { min, max } = setup([0, 1000]);
    expect(min).toHaveAttribute("aria-valuemin", "0");
    expect(min).toHaveAttribute("aria-valuemax", "1000");
    expect(min).toHaveAttribute("aria-valuenow", "0");
    expect(max).toHaveAttribute("aria-valuenow", "1000");
    expect(max).toHaveAttribute("aria-valuetext", "$1,000");
    expect(screen.getByTestId("price-min")).toHaveTextContent("$0");
    expect(screen.getByTestId("price-max")).toHaveTextContent("$1,000");
  });

  it("never lets the thumbs come closer than 10", async () => {
    const { user, onCommit, min, max } = setup([0, 20]);

    max.focus();
    await user.keyboard("{ArrowLeft}{ArrowLeft}{ArrowLeft}{ArrowLeft}");
    expect(max).toHaveAttribute("aria-valuenow", "10");
    expect(onCommit).toHaveBeenLastCalledWith([0, 10]);

    min.focus();
    await user.keyboard("{ArrowRight}{ArrowRight}");
    expect(min).toHaveAttribute("aria-valuenow", "0");

    for (const [lo, hi] of onCommit.mock.calls.map(([range]) => range)) {
      expect(hi - lo).toBeGreaterThanOrEqual(10);
    }
  });

  it("moves by 5 and commits each key press, showing the new value as money", async () => {
    const { user, onCommit, min } = setup([0, 1000]);
    min.focus();
    await user.keyboard("{ArrowRight}{ArrowRight}{PageUp}");
    expect(min).toHaveAttribute("aria-valuenow", "60");
    expect(min).toHaveAttribute("aria-valuetext", "$60");
    expect(onCommit).toHaveBeenLastCalledWith([60, 1000]);
    expect(screen.getByTestId("price-min")).toHaveTextContent("$60");
  });
});
