import {
  PRICE_SLIDER_GAP,
  PRICE_SLIDER_MAX,
  PRICE_SLIDER_MIN,
  PRODUCT_CATEGORIES,
  PRODUCT_SORTS,
  type ProductCategory,
  type ProductQuery,
  type ProductSort,
} from "@cartner/contract";
import { queryString } from "../../lib/call.ts";

/**
 * The products page's filters. They live in the URL query string (shareable, and the back button
 * works), under the same names GET /api/products takes: q, category (repeated), minPrice, maxPrice
 * and sort. Everything here is pure so that it can be tested without a browser.
 */
export type PriceRange = readonly [min: number, max: number];

export interface ProductFilters {
  /** The search term, trimmed; "" for none. */
  q: string;
  /** Shop and Cartner Express categories alike, in the contract's order, without duplicates. */
  categories: readonly ProductCategory[];
  price: PriceRange;
  sort: ProductSort;
}

export const FULL_PRICE_RANGE: PriceRange = [PRICE_SLIDER_MIN, PRICE_SLIDER_MAX];

export const DEFAULT_FILTERS: ProductFilters = {
  q: "",
  categories: [],
  price: FULL_PRICE_RANGE,
  sort: "relevance",
};

/** The longest search term the API accepts (ProductQuerySchema). */
export const SEARCH_MAX_LENGTH = 100;

const categoryOrder = new Map<string, number>(PRODUCT_CATEGORIES.map((c, i) => [c, i]));

function isCategory(value: string): value is ProductCategory {
  return categoryOrder.has(value);
}

function isSort(value: string | null): value is ProductSort {
  return value !== null && (PRODUCT_SORTS as readonly string[]).includes(value);
}

/** Known categories only, once each, in the contract's order (so equal filters give equal URLs). */
export function normalizeCategories(values: Iterable<string>): ProductCategory[] {
  const unique = new Set<ProductCategory>();
  for (const value of values) if (isCategory(value)) unique.add(value);
  return [...unique].sort((a, b) => (categoryOrder.get(a) ?? 0) - (categoryOrder.get(b) ?? 0));
}

export function toggleCategory(
  categories: readonly ProductCategory[],
  category: ProductCategory,
  on: boolean,
): ProductCategory[] {
  const rest = categories.filter((c) => c !== category);
  return normalizeCategories(on ? [...rest, category] : rest);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/**
 * Keeps a range inside the slider's bounds, in order, and at least `gap` wide (the slider's minimum
 * gap is 10). When the thumbs are too close, the one that can move keeps the gap: the maximum moves
 * up, or, at the top of the scale, the minimum moves down.
 */
export function clampPriceRange(
  range: readonly [number, number],
  gap: number = PRICE_SLIDER_GAP,
): PriceRange {
  const lo = Number.isFinite(range[0]) ? range[0] : PRICE_SLIDER_MIN;
  const hi = Number.isFinite(range[1]) ? range[1] : PRICE_SLIDER_MAX;
  let min = clamp(Math.round(Math.min(lo, hi)), PRICE_SLIDER_MIN, PRICE_SLIDER_MAX);
  let max = clamp(Math.round(Math.max(lo, hi)), PRICE_SLIDER_MIN, PRICE_SLIDER_MAX);
  if (max - min < gap) {
    max = Math.min(PRICE_SLIDER_MAX, min + gap);
    min = Math.max(PRICE_SLIDER_MIN, max - gap);
  }
  return [min, max];
}

export function isFullPriceRange(range: PriceRange): boolean {
  return range[0] === PRICE_SLIDER_MIN && range[1] === PRICE_SLIDER_MAX;
}

function parsePrice(raw: string | null): number | undefined {
  if (raw === null || raw.trim() === "") return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

/** Reads the filters from a query string. Anything unknown or malformed falls back to the default. */
export function parseFilters(params: URLSearchParams): ProductFilters {
  const q = (params.get("q") ?? "").trim().slice(0, SEARCH_MAX_LENGTH);
  const categories = normalizeCategories(params.getAll("category"));
  const minPrice = parsePrice(params.get("minPrice"));
  const maxPrice = parsePrice(params.get("maxPrice"));
  const price =
    minPrice === undefined && maxPrice === undefined
      ? FULL_PRICE_RANGE
      : clampPriceRange([minPrice ?? PRICE_SLIDER_MIN, maxPrice ?? PRICE_SLIDER_MAX]);
  const sortParam = params.get("sort");
  const sort = isSort(sortParam) ? sortParam : DEFAULT_FILTERS.sort;
  return { q, categories, price, sort };
}

/**
 * The canonical query string for some filters, used both for the page's URL and for the API call:
 * defaults are left out; a moved price slider sends both bounds (0..1000 sends neither).
 */
/** The API query for these filters: only what differs from the default list. */
export function filtersToQuery(filters: ProductFilters): ProductQuery {
  const query: ProductQuery = {};
  const q = filters.q.trim();
  if (q !== "") query.q = q;
  const categories = normalizeCategories(filters.categories);
  if (categories.length > 0) query.category = categories;
  const price = clampPriceRange(filters.price);
  if (!isFullPriceRange(price)) [query.minPrice, query.maxPrice] = price;
  if (filters.sort !== DEFAULT_FILTERS.sort) query.sort = filters.sort;
  return query;
}

/** The same as the page's search params (and the list's cache key). */
export function filtersToSearchParams(filters: ProductFilters): URLSearchParams {
  return new URLSearchParams(queryString(filtersToQuery(filters)));
}

/** How many filters narrow the list (search and sort not counted): for the Filters toggle's badge. */
export function countActiveFilters(filters: ProductFilters): number {
  return filters.categories.length + (isFullPriceRange(filters.price) ? 0 : 1);
}

/** True when anything (search, categories, price or sort) differs from the default list. */
export function hasAnyFilter(filters: ProductFilters): boolean {
  return filtersToSearchParams(filters).toString() !== "";
}
