import { useId, useState, type ReactNode } from "react";
import { Zap } from "lucide-react";
import {
  EXPRESS_CATEGORIES,
  SHOP_CATEGORIES,
  type ProductCategory,
  type ProductSort,
} from "@cartner/contract";
import { Button } from "../../components/ui/index.ts";
import { cn } from "../../lib/cn.ts";
import { PriceRangeSlider } from "./PriceRangeSlider.tsx";
import {
  DEFAULT_FILTERS,
  countActiveFilters,
  toggleCategory,
  type PriceRange,
  type ProductFilters,
} from "./filters.ts";
import type { FilterSource } from "./use-product-filters.ts";

/** The "Sort by" labels for the API's sort values. */
export const SORT_LABELS: Record<ProductSort, string> = {
  relevance: "Relevance",
  price_asc: "Price Low to High",
  price_desc: "Price High to Low",
  rating: "Customer Rating",
};

const sortOrder: ProductSort[] = ["relevance", "price_asc", "price_desc", "rating"];

interface FiltersPanelProps {
  id?: string;
  /**
   * Whether the panel is on screen (beside the grid on wide screens, opened with the Filters button
   * on small ones). The price slider mounts the first time it is: the slider measures its thumbs as
   * it mounts, which makes the browser lay out the whole page at once, and a hidden panel on a
   * phone's first load has nothing to measure.
   */
  shown?: boolean;
  /** Shown under the filters, e.g. the small-screen "Show N products" button. */
  footer?: ReactNode;
  filters: ProductFilters;
  onChange: (next: ProductFilters, source?: FilterSource) => void;
  className?: string;
}

const optionClasses =
  "flex cursor-pointer items-center gap-3 rounded-lg px-2 py-1.5 text-[0.9375rem] text-slate-700 " +
  "transition-colors hover:bg-slate-50 has-checked:font-semibold has-checked:text-ink";

const inputClasses = "size-4 shrink-0 cursor-pointer accent-primary-600";

function Group({
  legend,
  icon,
  children,
}: {
  legend: string;
  icon?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="border-t border-slate-200 pt-4">
      <fieldset>
        <legend className="mb-2 flex items-center gap-1.5 text-sm font-bold text-ink">
          {icon}
          {legend}
        </legend>
        <div className="flex flex-col gap-0.5">{children}</div>
      </fieldset>
    </div>
  );
}

/** Category, Price Range, Sort by and Cartner Express, all wired to the grid through the URL. */
export function FiltersPanel({
  id,
  shown = true,
  filters,
  onChange,
  footer,
  className,
}: FiltersPanelProps) {
  const priceHeadingId = useId();
  const [sliderMounted, setSliderMounted] = useState(shown);
  if (shown && !sliderMounted) setSliderMounted(true);
  const name = useId();
  const active = countActiveFilters(filters) > 0 || filters.sort !== DEFAULT_FILTERS.sort;

  function setCategory(category: ProductCategory, on: boolean) {
    onChange({ ...filters, categories: toggleCategory(filters.categories, category, on) });
  }

  function categoryOption(category: ProductCategory) {
    return (
      <label key={category} className={optionClasses}>
        <input
          type="checkbox"
          className={cn(inputClasses, "rounded")}
          checked={filters.categories.includes(category)}
          onChange={(event) => setCategory(category, event.target.checked)}
        />
        {category}
      </label>
    );
  }

  return (
    <div id={id} className={cn("flex flex-col gap-4", className)}>
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-lg font-bold">Filters</h2>
        {active && (
          <Button
            variant="link"
            className="text-sm"
            onClick={() => onChange({ ...DEFAULT_FILTERS, q: filters.q })}
          >
            Reset filters
          </Button>
        )}
      </div>

      <Group legend="Category">{SHOP_CATEGORIES.map(categoryOption)}</Group>

      <div className="border-t border-slate-200 pt-4">
        <p id={priceHeadingId} className="mb-3 text-sm font-bold text-ink">
          Price Range
        </p>
        {sliderMounted && (
          <PriceRangeSlider
            labelledBy={priceHeadingId}
            value={filters.price}
            onCommit={(price: PriceRange) => onChange({ ...filters, price }, "price")}
            className="px-1"
          />
        )}
      </div>

      <Group legend="Sort by">
        {sortOrder.map((sort) => (
          <label key={sort} className={optionClasses}>
            <input
              type="radio"
              name={`${name}-sort`}
              value={sort}
              className={inputClasses}
              checked={filters.sort === sort}
              onChange={() => onChange({ ...filters, sort })}
            />
            {SORT_LABELS[sort]}
          </label>
        ))}
      </Group>

      <Group
        legend="Cartner Express"
        icon={<Zap aria-hidden="true" className="size-4 fill-accent-400 text-accent-500" />}
      >
        {EXPRESS_CATEGORIES.map(categoryOption)}
      </Group>
      {footer}
    </div>
  );
}
