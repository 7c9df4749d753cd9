import type { ComponentProps } from "react";
import { cn } from "../../lib/cn.ts";

export type BadgeTone = "neutral" | "primary" | "accent" | "success" | "danger";

const tones: Record<BadgeTone, string> = {
  neutral: "bg-slate-100 text-slate-700 ring-slate-200",
  primary: "bg-primary-50 text-primary-700 ring-primary-200",
  accent: "bg-accent-50 text-accent-800 ring-accent-200",
  success: "bg-success-50 text-success-800 ring-success-100",
  danger: "bg-danger-50 text-danger-700 ring-danger-100",
};

export interface BadgeProps extends ComponentProps<"span"> {
  tone?: BadgeTone;
}

export function Badge({ tone = "neutral", className, ...props }: BadgeProps) {
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset",
        tones[tone],
        className,
      )}
      {...props}
    />
  );
}
