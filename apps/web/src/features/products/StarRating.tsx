import { cn } from "../../lib/cn.ts";
import { formatRating } from "./format.ts";

export type StarKind = "full" | "half" | "empty";

export const STAR_COUNT = 5;

/** Absorbs floating-point noise (e.g. 4.5 arriving as 4.4999999) without rounding real tenths. */
const EPSILON = 1e-9;

/** 5 stars, a full star per whole point and a half star when the fraction is 0.5 or more. */
export function starKinds(rating: number): StarKind[] {
  const value = Math.min(STAR_COUNT, Math.max(0, Number.isFinite(rating) ? rating : 0));
  const full = Math.floor(value + EPSILON);
  const half = value - full >= 0.5 - EPSILON;
  return Array.from({ length: STAR_COUNT }, (_, i) =>
    i < full ? "full" : i === full && half ? "half" : "empty",
  );
}

export function ratingLabel(rating: number): string {
  return `Rated ${formatRating(rating)} out of ${STAR_COUNT}`;
}

interface StarRatingProps {
  rating: number;
  className?: string;
  /** Size of each star, as Tailwind size classes. */
  starClassName?: string;
}

/**
 * Five stars with one accessible name ("Rated 4.5 out of 5"); the stars themselves are hidden.
 * Each star is one empty element drawn by its CSS class (`.star-full`, `.star-half`, `.star-empty` in
 * styles/index.css: our own star polygon as background images), not an inline SVG:
 * the products grid shows a rating on every card, and six elements per rating instead of about
 * seventeen make the grid noticeably cheaper to build and lay out on a phone.
 */
export function StarRating({ rating, className, starClassName = "size-4" }: StarRatingProps) {
  return (
    <span
      role="img"
      aria-label={ratingLabel(rating)}
      className={cn("inline-flex items-center gap-0.5", className)}
    >
      {starKinds(rating).map((kind, index) => (
        <span key={index} data-star={kind} className={cn(`star-${kind}`, starClassName)} />
      ))}
    </span>
  );
}
