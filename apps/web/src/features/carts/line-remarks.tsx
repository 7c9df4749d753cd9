import { SUBSTITUTE_TEXT, type CartLine, type LineSubstitute } from "@cartner/contract";
import { cn } from "../../lib/cn.ts";

/** The substitute choices as the shopper reads them. */
export const SUBSTITUTE_LABELS: Record<LineSubstitute, string> = {
  any: "Any substitute",
  similar: "Something similar",
  none: "No substitute",
};

/** The "estimated" mark of a free line's price. */
export function EstimatedBadge() {
  return (
    <span className="inline-flex w-fit items-center rounded-full bg-accent-50 px-2 py-0.5 text-xs font-medium text-accent-800 ring-1 ring-accent-200 ring-inset">
      Estimated
    </span>
  );
}

/**
 * The mark of a private line, as its adder and the creator see it (those it is hidden from never
 * get the line; "Keep items private" says whom).
 */
export function PrivateBadge() {
  return (
    <span className="inline-flex w-fit items-center rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700 ring-1 ring-slate-300 ring-inset">
      Private
    </span>
  );
}

/** A line's note and substitute choice, as whoever shops reads them; nothing when neither is set. */
export function LineRemarks({
  line,
  className,
}: {
  line: Pick<CartLine, "note" | "substitute">;
  className?: string;
}) {
  const substitute = SUBSTITUTE_TEXT[line.substitute ?? "any"];
  if (!line.note && !substitute) return null;
  return (
    <span className={cn("flex flex-col text-xs text-slate-600", className)}>
      {line.note && <span className="break-words">Note: {line.note}</span>}
      {substitute && <span>{substitute}</span>}
    </span>
  );
}
