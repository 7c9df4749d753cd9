import { describe, expect, it } from "vitest";
import { buildIndex, type SearchQuery } from "../../src/features/products/search-index.ts";
import { query } from "../../src/features/products/search-query.ts";
import {
  gtinKey,
  productWords,
  withinOneTypo,
  words,
  type IndexedProduct,
} from "../../src/features/products/search-words.ts";

describe("words", () => {
  it("are lower case, without accents, split on anything not a letter or digit", () => {
    expect(words("Crème Brûlée, 2×150 g")).toEqual(["creme", "brulee", "2", "150", "g"]);
    expect(words("Wireless Over-Ear")).toEqual(["wireless", "over", "ear"]);
    expect(words("  ")).toEqual([]);
  });
});

describe("gtinKey", () => {
  it("reads 8, 12, 13 or 14 digits, spaces and dashes dropped, as 14 digits", () => {
    expect(gtinKey("4006381333931")).toBe("04006381333931");
    expect(gtinKey("400 6381-333931")).toBe("04006381333931");
    expect(gtinKey("012345678905")).toBe("00012345678905");
    expect(gtinKey("96385074")).toBe("00000096385074");
    expect(gtinKey("12345")).toBeUndefined();
    expect(gtinKey("4006381333931x")).toBeUndefined();
  });
});

describe("withinOneTypo", () => {
  it.each([
    ["chocolte", "chocolate", true], // a letter left out
    ["chocolatte", "chocolate", true], // one too many
    ["chocolame", "chocolate", true], // one replaced
    ["chcoolate", "chocolate", true], // two swapped
    ["bluberry", "blueberry", true],
    ["chocolate", "chocolate", true],
    ["choclte", "chocolate", false], // two left out
    ["chocolate", "chocolates!!", false],
    ["abcd", "badc", false], // two swaps
  ])("%s and %s: %s", (a, b, expected) => {
    expect(withinOneTypo(a, b)).toBe(expected);
    expect(withinOneTypo(b, a)).toBe(expected);
  });
});

const product = (name: string, fields: Partial<IndexedProduct> = {}): IndexedProduct => ({
  name,
  brand: null,
  description: "",
  category: "Food",
  gtin: null,
  priceCents: 100,
  rating: 0,
  reviews: 0,
  available: true,
  ...fields,
});
const catalog = [
  product("Chocolate Chip Cookies", { description: "With dark chocolate.", priceCents: 300 }),
  product("Hot Cocoa", {
    description: "Rich chocolate drink.",
    category: "Drinks",
    priceCents: 200,
  }),
  product("Chocolate", { brand: "Lindt", priceCents: 500, rating: 4.5, gtin: "4006381333931" }),
  product("Choco Rings", { priceCents: 150, available: false }),
  product("Chocolate Milk", { category: "Drinks", priceCents: 120, rating: 3 }),
];
const index = buildIndex(catalog, catalog.map(productWords));
const find = (q: Partial<SearchQuery>) => {
  const { docs, total } = query(index, { available: true, sort: "relevance", offset: 0, ...q });
  return { names: docs.map((doc) => catalog[doc]!.name), total };
};

describe("query", () => {
  it("ranks a whole word of the name, then a word it starts, then a typo, then the text", () => {
    expect(find({ q: "chocolate" }).names).toEqual([
      "Chocolate Chip Cookies",
      "Chocolate",
      "Chocolate Milk",
      "Hot Cocoa",
    ]);
    expect(find({ q: "choco" }).names).toEqual([
      "Chocolate Chip Cookies",
      "Chocolate",
      "Chocolate Milk",
      "Hot Cocoa",
    ]);
    expect(find({ q: "chocolte" }).names).toEqual([
      "Chocolate Chip Cookies",
      "Chocolate",
      "Chocolate Milk",
      "Hot Cocoa",
    ]);
    expect(find({ q: "cocoa" }).names).toEqual(["Hot Cocoa"]);
    // Among equal scores, the catalog's own order.
    expect(find({ q: "lindt chocolate" }).names).toEqual(["Chocolate"]);
  });

  it("adds up the words: a product matching more of them by name comes first", () => {
    expect(find({ q: "chocolate milk" }).names).toEqual(["Chocolate Milk"]);
    // "drink" starts "Drinks", the category of both: the name's "chocolate" puts the milk first.
    expect(find({ q: "chocolate drink" }).names).toEqual(["Chocolate Milk", "Hot Cocoa"]);
  });

  it("sorts, filters and pages the matches, with the total of all", () => {
    expect(find({ q: "choc", sort: "price_asc" }).names).toEqual([
      "Chocolate Milk",
      "Hot Cocoa",
      "Chocolate Chip Cookies",
      "Chocolate",
    ]);
    expect(find({ q: "choc", sort: "rating", limit: 2 })).toEqual({
      names: ["Chocolate", "Chocolate Milk"],
      total: 4,
    });
    expect(find({ q: "choc", categories: new Set(["Drinks"]), minCents: 150 }).names).toEqual([
      "Hot Cocoa",
    ]);
    expect(find({ q: "choc", offset: 3, limit: 5 })).toEqual({ names: ["Hot Cocoa"], total: 4 });
    expect(find({ q: "choc", available: false }).names).toEqual(["Choco Rings"]);
  });

  it("browses every product without a query, and finds one by its GTIN", () => {
    expect(find({ sort: "price_desc", limit: 2 })).toEqual({
      names: ["Chocolate", "Chocolate Chip Cookies"],
      total: 4,
    });
    expect(find({ q: "4006381333931" })).toEqual({ names: ["Chocolate"], total: 1 });
    expect(find({ q: "4006381333931", categories: new Set(["Drinks"]) }).total).toBe(0);
  });
});
