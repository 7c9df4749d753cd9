import { describe, expect, it } from "vitest";
import {
  DEFAULT_FILTERS,
  clampPriceRange,
  countActiveFilters,
  filtersToSearchParams,
  hasAnyFilter,
  parseFilters,
  toggleCategory,
  type ProductFilters,
} from "./filters.ts";

const parse = (query: string) => parseFilters(new URLSearchParams(query));
const serialise = (filters: ProductFilters) => filtersToSearchParams(filters).toString();

describe("URL → filters", () => {
  it("an empty query is the default list", () => {
    expect(parse("")).toEqual(DEFAULT_FILTERS);
  });

  it("reads search, repeated categories, both prices and the sort", () => {
    expect(
      parse(
        "q=%20lamp%20&category=Beauty&category=Electronics&minPrice=20&maxPrice=300&sort=rating",
      ),
    ).toEqual({
      q: "lamp",
      categories: ["Electronics", "Beauty"],
      price: [20, 300],
      sort: "rating",
    });
  });

  it("drops unknown categories and duplicates, and ignores an unknown sort", () => {
    expect(parse("category=Toys&category=Food&category=Food&sort=cheapest")).toEqual({
      ...DEFAULT_FILTERS,
      categories: ["Food"],
    });
  });

  it("treats malformed prices as absent and a lone bound as one end of the slider", () => {
    expect(parse("minPrice=abc&maxPrice=").price).toEqual([0, 1000]);
    expect(parse("minPrice=50").price).toEqual([50, 1000]);
    expect(parse("maxPrice=80").price).toEqual([0, 80]);
  });

  it("keeps prices on the slider's scale, in order and at least 10 apart", () => {
    expect(parse("minPrice=-5&maxPrice=5000").price).toEqual([0, 1000]);
    expect(parse("minPrice=300&maxPrice=100").price).toEqual([100, 300]);
    expect(parse("minPrice=100&maxPrice=104").price).toEqual([100, 110]);
    expect(parse("minPrice=998&maxPrice=1000").price).toEqual([990, 1000]);
  });

  it("caps the search term at the API's limit", () => {
    expect(parse(`q=${"a".repeat(150)}`).q).toHaveLength(100);
  });
});

describe("filters → URL", () => {
  it("leaves every default out", () => {
    expect(serialise(DEFAULT_FILTERS)).toBe("");
    expect(hasAnyFilter(DEFAULT_FILTERS)).toBe(false);
  });

  it("sends no price at 0..1000 and both bounds once the slider moved", () => {
    expect(serialise({ ...DEFAULT_FILTERS, price: [0, 1000] })).toBe("");
    expect(serialise({ ...DEFAULT_FILTERS, price: [50, 1000] })).toBe("minPrice=50&maxPrice=1000");
    expect(serialise({ ...DEFAULT_FILTERS, price: [0, 400] })).toBe("minPrice=0&maxPrice=400");
  });

  it("writes categories as a repeated parameter in a stable order", () => {
    const filters: ProductFilters = {
      ...DEFAULT_FILTERS,
      q: "  mug ",
      categories: ["Groceries", "Home & Kitchen"],
      sort: "price_desc",
    };
    expect(serialise(filters)).toBe(
      "q=mug&category=Home+%26+Kitchen&category=Groceries&sort=price_desc",
    );
  });

  it("round-trips: parse(serialise(f)) is f, and equal filters give equal strings", () => {
    const filters: ProductFilters = {
      q: "red shoes",
      categories: ["Clothing", "Sports & Outdoors", "Drinks"],
      price: [10, 250],
      sort: "price_asc",
    };
    expect(parse(serialise(filters))).toEqual(filters);
    expect(serialise(parse("sort=price_asc&category=Drinks&category=Clothing"))).toBe(
      serialise(parse("category=Clothing&category=Drinks&sort=price_asc")),
    );
  });

  it("counts categories and a moved price as active filters", () => {
    expect(countActiveFilters(DEFAULT_FILTERS)).toBe(0);
    expect(
      countActiveFilters({ ...DEFAULT_FILTERS, categories: ["Food", "Beauty"], price: [5, 500] }),
    ).toBe(3);
  });
});

describe("toggleCategory", () => {
  it("adds and removes, keeping the contract's order", () => {
    const on = toggleCategory(["Food"], "Electronics", true);
    expect(on).toEqual(["Electronics", "Food"]);
    expect(toggleCategory(on, "Food", false)).toEqual(["Electronics"]);
    expect(toggleCategory(on, "Food", true)).toEqual(["Electronics", "Food"]);
  });
});

describe("clampPriceRange (the slider's minimum gap of 10)", () => {
  it("widens a range narrower than the gap", () => {
    expect(clampPriceRange([200, 200])).toEqual([200, 210]);
    expect(clampPriceRange([0, 3])).toEqual([0, 10]);
    expect(clampPriceRange([1000, 1000])).toEqual([990, 1000]);
  });

  it("leaves a valid range alone", () => {
    expect(clampPriceRange([200, 210])).toEqual([200, 210]);
    expect(clampPriceRange([0, 1000])).toEqual([0, 1000]);
  });
});
