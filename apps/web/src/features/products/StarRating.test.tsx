import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import { StarRating, ratingLabel, starKinds } from "./StarRating.tsx";

function kindsShown(container: HTMLElement) {
  return Array.from(container.querySelectorAll("[data-star]")).map((el) =>
    el.getAttribute("data-star"),
  );
}

describe("StarRating", () => {
  it("4.5 shows 4 full stars and a half star", () => {
    const { container } = render(<StarRating rating={4.5} />);
    expect(kindsShown(container)).toEqual(["full", "full", "full", "full", "half"]);
    expect(screen.getByRole("img", { name: "Rated 4.5 out of 5" })).toBeInTheDocument();
  });

  it("4.4 shows 4 full stars and no half star", () => {
    const { container } = render(<StarRating rating={4.4} />);
    expect(kindsShown(container)).toEqual(["full", "full", "full", "full", "empty"]);
    expect(screen.getByRole("img", { name: "Rated 4.4 out of 5" })).toBeInTheDocument();
  });

  it("always shows five stars and one accessible name (the icons are hidden)", () => {
    const { container } = render(<StarRating rating={2.5} />);
    expect(container.querySelectorAll("[data-star]")).toHaveLength(5);
    expect(screen.getAllByRole("img")).toHaveLength(1);
    expect(container.querySelectorAll('svg:not([aria-hidden="true"])')).toHaveLength(0);
  });

  it.each([
    [0, [0, 0, 5]],
    [0.5, [0, 1, 4]],
    [3, [3, 0, 2]],
    [3.49, [3, 0, 2]],
    [3.5, [3, 1, 1]],
    [4.9, [4, 1, 0]],
    [5, [5, 0, 0]],
    [7, [5, 0, 0]],
    [-1, [0, 0, 5]],
  ])("rating %s gives [full, half, empty] = %j", (rating, [full, half, empty]) => {
    const kinds = starKinds(rating);
    expect(kinds.filter((k) => k === "full")).toHaveLength(full!);
    expect(kinds.filter((k) => k === "half")).toHaveLength(half!);
    expect(kinds.filter((k) => k === "empty")).toHaveLength(empty!);
  });

  it("labels whole ratings without a decimal", () => {
    expect(ratingLabel(4)).toBe("Rated 4 out of 5");
    expect(ratingLabel(3.7)).toBe("Rated 3.7 out of 5");
  });
});
