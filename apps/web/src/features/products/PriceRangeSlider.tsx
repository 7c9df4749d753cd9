import { useState } from "react";
import { Slider } from "radix-ui";
import { PRICE_SLIDER_GAP, PRICE_SLIDER_MAX, PRICE_SLIDER_MIN } from "@cartner/contract";
import { cn } from "../../lib/cn.ts";
import { clampPriceRange, type PriceRange } from "./filters.ts";
import { formatWholeMoney } from "./format.ts";

/** Arrow keys move a thumb by $5 (Shift+arrow or Page Up/Down by $50; Home/End jump to the ends). */
export const PRICE_SLIDER_STEP = 5;

interface PriceRangeSliderProps {
  value: PriceRange;
  /** Called when a drag ends or a key moves a thumb; never with a range narrower than the gap. */
  onCommit: (range: PriceRange) => void;
  /** The id of the visible heading that names the slider group. */
  labelledBy?: string;
  className?: string;
}

function sameRange(a: PriceRange, b: PriceRange): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

const thumbClasses =
  "block size-5 cursor-grab rounded-full border-2 border-primary-600 bg-white shadow-md " +
  "transition-[box-shadow,transform] hover:scale-110 active:cursor-grabbing " +
  "focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-primary-500";

/**
 * The two-thumb price slider: 0 to 1000, the thumbs never closer than 10. While a thumb moves,
 * only this component re-renders; the filters (and so the URL and the request) change on commit.
 */
export function PriceRangeSlider({
  value,
  onCommit,
  labelledBy,
  className,
}: PriceRangeSliderProps) {
  // The range being dragged, valid only while the committed value it started from is current.
  const [draft, setDraft] = useState<{ from: PriceRange; range: PriceRange } | null>(null);
  const shown = draft && sameRange(draft.from, value) ? draft.range : value;
  const [min, max] = shown;

  return (
    <div role="group" aria-labelledby={labelledBy} className={cn("flex flex-col gap-3", className)}>
      <p className="flex items-center justify-between gap-2 text-sm font-semibold text-slate-800">
        <span>
          <span className="sr-only">From </span>
          <span data-testid="price-min">{formatWholeMoney(min)}</span>
        </span>
        <span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
        <span>
          <span className="sr-only">to </span>
          <span data-testid="price-max">{formatWholeMoney(max)}</span>
        </span>
      </p>
      <Slider.Root
        min={PRICE_SLIDER_MIN}
        max={PRICE_SLIDER_MAX}
        step={PRICE_SLIDER_STEP}
        minStepsBetweenThumbs={PRICE_SLIDER_GAP / PRICE_SLIDER_STEP}
        value={[min, max]}
        onValueChange={(next) => {
          if (next.length === 2) {
            setDraft({ from: value, range: clampPriceRange([next[0] ?? min, next[1] ?? max]) });
          }
        }}
        onValueCommit={(next) => {
          if (next.length === 2) onCommit(clampPriceRange([next[0] ?? min, next[1] ?? max]));
        }}
        className="relative flex h-6 w-full touch-none items-center select-none"
      >
        <Slider.Track className="relative h-1.5 grow overflow-hidden rounded-full bg-slate-200">
          <Slider.Range className="absolute h-full rounded-full bg-primary-600" />
        </Slider.Track>
        <Slider.Thumb
          aria-label="Minimum price"
          aria-valuetext={formatWholeMoney(min)}
          className={thumbClasses}
        />
        <Slider.Thumb
          aria-label="Maximum price"
          aria-valuetext={formatWholeMoney(max)}
          className={thumbClasses}
        />
      </Slider.Root>
    </div>
  );
}
