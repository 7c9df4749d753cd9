import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Search, X } from "lucide-react";
import { Button } from "../../components/ui/index.ts";
import { controlClasses } from "../../components/ui/Input.tsx";
import { cn } from "../../lib/cn.ts";
import { SEARCH_MAX_LENGTH } from "./filters.ts";

/** Typing searches after this pause; Enter or the button search at once. */
export const SEARCH_DEBOUNCE_MS = 400;

interface SearchBarProps {
  /** The search in effect (from the URL). */
  value: string;
  /** `typing` for the debounced search while typing, `submit` for Enter, the button or clearing. */
  onSearch: (term: string, how: "typing" | "submit") => void;
  className?: string;
}

export function SearchBar({ value, onSearch, className }: SearchBarProps) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useState(value);
  // What typing last sent: when the URL catches up with it, the draft (maybe typed further) stays.
  const [sent, setSent] = useState<string | null>(null);
  const [seenValue, setSeenValue] = useState(value);
  if (value !== seenValue) {
    // The search changed from outside (Back, Clear filters, a shared link): show it.
    setSeenValue(value);
    if (value !== sent && value !== draft.trim()) setDraft(value);
  }

  useEffect(() => {
    const term = draft.trim();
    if (term === value) return;
    const timer = window.setTimeout(() => {
      setSent(term);
      onSearch(term, "typing");
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [draft, value, onSearch]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSearch(draft.trim(), "submit");
  }

  return (
    <form role="search" onSubmit={submit} className={cn("flex gap-2", className)}>
      <label htmlFor={inputId} className="sr-only">
        Search products
      </label>
      <div className="relative flex-1">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3.5 size-5 -translate-y-1/2 text-slate-400"
        />
        <input
          ref={inputRef}
          id={inputId}
          type="search"
          enterKeyHint="search"
          autoComplete="off"
          maxLength={SEARCH_MAX_LENGTH}
          placeholder="Search products"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          className={cn(
            controlClasses,
            "h-12 pr-11 pl-11 [&::-webkit-search-cancel-button]:appearance-none",
          )}
        />
        {draft !== "" && (
          <button
            type="button"
            aria-label="Clear search"
            onClick={() => {
              setDraft("");
              onSearch("", "submit");
              inputRef.current?.focus();
            }}
            className="absolute top-1/2 right-2 flex size-8 -translate-y-1/2 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-ink"
          >
            <X aria-hidden="true" className="size-4" />
          </button>
        )}
      </div>
      <Button type="submit" size="lg" className="px-4 sm:px-6">
        <Search aria-hidden="true" className="size-5 sm:hidden" />
        <span className="sr-only sm:not-sr-only">Search</span>
      </Button>
    </form>
  );
}
