import { LoaderCircle } from "lucide-react";
import { cn } from "../../lib/cn.ts";

interface SpinnerProps {
  /** When given, the spinner announces itself (role=status); otherwise it is decorative. */
  label?: string;
  className?: string;
}

export function Spinner({ label, className }: SpinnerProps) {
  const icon = (
    <LoaderCircle aria-hidden="true" className={cn("size-5 shrink-0 animate-spin", className)} />
  );
  if (!label) return icon;
  return (
    <span role="status" className="inline-flex items-center">
      {icon}
      <span className="sr-only">{label}</span>
    </span>
  );
}

/**
 * The loading state of a whole page. It is a screen tall, so the footer stays below the fold while
 * the page loads and does not jump when the page arrives (a layout shift).
 */
export function PageSpinner({ label = "Loading…" }: { label?: string }) {
  return (
    <div
      role="status"
      className="flex min-h-dvh flex-col items-center justify-start gap-3 pt-[16vh] text-slate-600"
    >
      <LoaderCircle aria-hidden="true" className="size-8 animate-spin text-primary-600" />
      <span className="text-sm font-medium">{label}</span>
    </div>
  );
}
