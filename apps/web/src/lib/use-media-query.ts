import { useCallback, useSyncExternalStore } from "react";

/** Tailwind's `lg` breakpoint (64rem), where the products page shows its filters beside the grid. */
export const LG_MEDIA_QUERY = "(min-width: 64rem)";

/**
 * Whether a CSS media query matches, kept current as the window changes. Where the browser cannot
 * tell (no `matchMedia`, as in jsdom), it answers `fallback`.
 */
export function useMediaQuery(query: string, fallback = true): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia?.(query);
      list?.addEventListener("change", onChange);
      return () => list?.removeEventListener("change", onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia?.(query).matches ?? fallback,
    () => fallback,
  );
}
