import type { ComponentProps } from "react";
import { cn } from "../../lib/cn.ts";

export interface LabelProps extends ComponentProps<"label"> {
  /** Adds a quiet "(optional)" after the text. */
  optional?: boolean;
}

export function Label({ optional, className, children, ...props }: LabelProps) {
  return (
    <label className={cn("text-sm font-semibold text-slate-800", className)} {...props}>
      {children}
      {optional && <span className="ml-1 font-normal text-slate-500">(optional)</span>}
    </label>
  );
}
