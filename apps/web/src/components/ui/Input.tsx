import type { ComponentProps } from "react";
import { ChevronDown } from "lucide-react";
import { cn } from "../../lib/cn.ts";

export const controlClasses =
  "block h-11 w-full rounded-xl border border-slate-300 bg-white px-3.5 text-[0.9375rem] text-ink " +
  "shadow-xs transition-colors placeholder:text-slate-400 hover:border-slate-400 " +
  "focus-visible:border-primary-600 focus-visible:outline-3 focus-visible:outline-primary-500/40 focus-visible:outline-offset-0 " +
  "disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-500 " +
  "aria-[invalid=true]:border-danger-600 aria-[invalid=true]:focus-visible:outline-danger-500/40";

export function Input({ className, ...props }: ComponentProps<"input">) {
  return <input className={cn(controlClasses, className)} {...props} />;
}

/** A native select (keyboard, screen reader and mobile friendly, and CSP-safe), in our style. */
export function NativeSelect({ className, children, ...props }: ComponentProps<"select">) {
  return (
    <div className="relative">
      <select className={cn(controlClasses, "appearance-none pr-10", className)} {...props}>
        {children}
      </select>
      <ChevronDown
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 right-3 size-5 -translate-y-1/2 text-slate-500"
      />
    </div>
  );
}
