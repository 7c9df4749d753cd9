import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/react";
import { QueryList, type ListQuery } from "./QueryList.tsx";

function draw(query: Partial<ListQuery<string>>) {
  const full: ListQuery<string> = {
    data: undefined,
    isError: false,
    error: null,
    isFetching: false,
    refetch: vi.fn(),
    ...query,
  };
  render(
    <QueryList
      query={full}
      loading={<p>Loading the fruit…</p>}
      errorTitle="We couldn't load the fruit."
      empty={<p>No fruit yet.</p>}
    >
      {(items) => (
        <ul aria-label="Fruit">
          {items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      )}
    </QueryList>,
  );
  return full;
}

describe("QueryList", () => {
  it("shows the loading state until the first answer", () => {
    draw({ isFetching: true });
    expect(screen.getByText("Loading the fruit…")).toBeVisible();
  });

  it("shows the empty state for an empty list", () => {
    draw({ data: [] });
    expect(screen.getByText("No fruit yet.")).toBeVisible();
    expect(screen.queryByRole("list")).toBeNull();
  });

  it("draws the items", () => {
    draw({ data: ["apple", "pear"] });
    expect(screen.getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      "apple",
      "pear",
    ]);
  });

  it("says the load failed, why if it can, and offers a Try again that refetches", () => {
    const query = draw({ isError: true, error: new TypeError("Failed to fetch") });
    expect(screen.getByText("We couldn't load the fruit.")).toBeVisible();
    expect(screen.getByText("Check your connection and try again.")).toBeVisible();
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(query.refetch).toHaveBeenCalledOnce();
  });

  it("keeps the items already shown when a refetch fails", () => {
    draw({ data: ["apple"], isError: true, error: new Error("offline") });
    expect(screen.getByText("apple")).toBeVisible();
    expect(screen.queryByText("We couldn't load the fruit.")).toBeNull();
  });
});
