import { useState, type ReactNode } from "react";
import { Link } from "../../lib/router.tsx";
import { ChevronDown, ImageOff } from "lucide-react";
import { Button } from "../../components/ui/index.ts";
import { cn } from "../../lib/cn.ts";
import { formatMoney } from "../../lib/format.ts";
import { smallPhoto } from "../../lib/product-photos.ts";
import { BEFORE_FEES_AND_TAX, itemsLabel, unsentNote } from "./cart-model.ts";

/** A product thumbnail with a quiet stand-in when the image cannot load. Decorative by default. */
export function LineImage({
  src,
  alt = "",
  className,
}: {
  src: string;
  alt?: string;
  className?: string;
}) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const frame = cn(
    "size-14 shrink-0 overflow-hidden rounded-xl bg-slate-100 ring-1 ring-slate-900/5",
    className,
  );
  if (failedSrc === src) {
    return (
      <span
        className={cn(frame, "flex items-center justify-center text-slate-400")}
        {...(alt ? { role: "img", "aria-label": alt } : { "aria-hidden": true })}
      >
        <ImageOff aria-hidden="true" className="size-5" />
      </span>
    );
  }
  return (
    <span className={frame}>
      <img
        src={smallPhoto(src)}
        alt={alt}
        width={56}
        height={56}
        loading="lazy"
        decoding="async"
        className="size-full object-cover"
        onError={() => setFailedSrc(src)}
      />
    </span>
  );
}

/** The small links above a cart page's title (Home and Cart History on the cart page). */
export function PageLinks({ links }: { links: Array<{ to: string; label: string }> }) {
  return (
    <nav aria-label="Related pages">
      <ul className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm font-semibold">
        {links.map((link, index) => (
          <li key={link.to} className="flex items-center gap-2">
            {index > 0 && (
              <span aria-hidden="true" className="text-slate-300">
                /
              </span>
            )}
            <Link to={link.to} className="rounded-md text-primary-700 hover:underline">
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Placeholder cart sections while the list loads. */
export function CartSkeleton({ label, sections = 2 }: { label: string; sections?: number }) {
  return (
    <div className="flex flex-col gap-4">
      <p role="status" className="sr-only">
        {label}
      </p>
      {Array.from({ length: sections }, (_, i) => (
        <div
          key={i}
          aria-hidden="true"
          className="flex animate-pulse flex-col gap-4 rounded-card bg-surface p-5 shadow-soft ring-1 ring-slate-900/5"
        >
          <div className="flex items-center justify-between gap-4">
            <div className="flex flex-1 flex-col gap-2">
              <div className="h-6 w-1/2 max-w-64 rounded bg-slate-200" />
              <div className="h-4 w-2/3 max-w-80 rounded bg-slate-200" />
            </div>
            <div className="size-10 rounded-xl bg-slate-200" />
          </div>
          {i === 0 &&
            Array.from({ length: 3 }, (_, row) => (
              <div key={row} className="flex items-center gap-3">
                <div className="size-14 rounded-xl bg-slate-200" />
                <div className="flex flex-1 flex-col gap-2">
                  <div className="h-4 w-1/2 rounded bg-slate-200" />
                  <div className="h-3 w-1/3 rounded bg-slate-200" />
                </div>
                <div className="h-9 w-24 rounded-xl bg-slate-200" />
              </div>
            ))}
        </div>
      ))}
    </div>
  );
}

/** The expand/collapse button of a cart section (current and past carts). */
export function CollapseToggle({
  open,
  panelId,
  name,
  onToggle,
}: {
  open: boolean;
  panelId: string;
  name: string;
  onToggle: () => void;
}) {
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-expanded={open}
      aria-controls={panelId}
      aria-label={`Items in ${name}`}
      title={open ? "Collapse" : "Expand"}
      onClick={onToggle}
    >
      <ChevronDown
        aria-hidden="true"
        className={cn("size-5 transition-transform", open && "rotate-180")}
      />
    </Button>
  );
}

export interface StackedColumn {
  label: string;
  /** Padding and alignment, the same as the column's cells so header and figures line up. */
  className: string;
}

/** Padding and alignment of every cell of a StackedTable; rows add their own grid placement. */
export const stackedCell = "py-3 align-middle max-sm:p-0";

/**
 * A table whose rows become small stacked cards at 640 px and below (the rows' cells place
 * themselves on a grid there); explicit roles keep the table semantics for screen readers when
 * the display changes. Used for the cart's lines and the summary's items.
 */
export function StackedTable({
  caption,
  columns,
  children,
}: {
  caption: string;
  columns: StackedColumn[];
  children: ReactNode;
}) {
  return (
    <table role="table" className="w-full border-collapse text-left text-sm max-sm:block">
      <caption className="sr-only">{caption}</caption>
      <thead role="rowgroup" className="max-sm:sr-only">
        <tr
          role="row"
          className="border-b border-slate-200 text-xs font-semibold tracking-wide text-slate-500 uppercase"
        >
          {columns.map((column) => (
            <th
              key={column.label}
              role="columnheader"
              scope="col"
              className={cn("py-2 font-semibold", column.className)}
            >
              {column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup" className="divide-y divide-slate-100 max-sm:block">
        {children}
      </tbody>
    </table>
  );
}

/**
 * The cart's total (the lines' prices) with its item count, said to be before fees and tax: the
 * shares and the order add those to it. `tone` follows the card it sits in.
 */
export function CartTotal({
  total,
  itemCount,
  tone = "plain",
  unsent = 0,
  estimated = false,
  pendingTotal = 0,
  privateCount = 0,
}: {
  total: number;
  /** What the lines waiting for approval come to: not in `total` until approved. */
  pendingTotal?: number;
  itemCount: number;
  /** Lines hidden from the reader (presents for them): in the total, not in the list. */
  privateCount?: number;
  tone?: "plain" | "primary";
  /** Some lines are priced by an estimate (items added by name) until the order is priced. */
  estimated?: boolean;
  /** The user's changes drawn into the total that the server has not confirmed yet. */
  unsent?: number;
}) {
  const primary = tone === "primary";
  return (
    <div
      className={cn(
        "flex flex-col gap-0.5 rounded-xl px-4 py-3",
        primary ? "bg-primary-50/70" : "bg-slate-50",
      )}
    >
      <div className="flex items-baseline justify-between gap-3">
        <span
          className={cn("text-sm font-semibold", primary ? "text-primary-900" : "text-slate-800")}
        >
          Cart total
          <span className={cn("font-normal", primary ? "text-primary-800" : "text-slate-600")}>
            {" "}
            · {itemsLabel(itemCount)}
          </span>
        </span>
        <span className="font-display text-lg font-bold text-ink tabular-nums">
          {formatMoney(total)}
        </span>
      </div>
      <p className={cn("text-xs", primary ? "text-primary-800" : "text-slate-600")}>
        {BEFORE_FEES_AND_TAX}
        {estimated && <> · includes estimated prices</>}
        {privateCount > 0 && (
          <> · includes {privateCount === 1 ? "1 private item" : `${privateCount} private items`}</>
        )}
        {unsent > 0 && <> · {unsentNote(unsent)}</>}
        {pendingTotal > 0 && <> · {formatMoney(pendingTotal)} waiting for approval, not counted</>}
      </p>
    </div>
  );
}
