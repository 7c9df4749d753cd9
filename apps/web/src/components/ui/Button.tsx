import type { ComponentProps, ReactNode } from "react";
import { Link } from "../../lib/router.tsx";
import { cn } from "../../lib/cn.ts";
import { Spinner } from "./Spinner.tsx";

export type ButtonVariant = "primary" | "secondary" | "ghost" | "accent" | "danger" | "link";
export type ButtonSize = "sm" | "md" | "lg" | "icon";

const base =
  "inline-flex items-center justify-center gap-2 rounded-xl font-semibold whitespace-nowrap " +
  "transition-colors duration-150 select-none disabled:cursor-not-allowed disabled:opacity-60";

const variants: Record<ButtonVariant, string> = {
  primary:
    "bg-primary-600 text-white shadow-sm shadow-primary-600/20 hover:bg-primary-700 active:bg-primary-800 disabled:hover:bg-primary-600",
  secondary:
    "bg-white text-slate-800 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50 hover:ring-slate-400 disabled:hover:bg-white",
  ghost: "text-slate-700 hover:bg-slate-100 hover:text-ink disabled:hover:bg-transparent",
  accent: "bg-accent-100 text-accent-800 hover:bg-accent-200 disabled:hover:bg-accent-100",
  danger: "bg-danger-600 text-white shadow-sm hover:bg-danger-700 disabled:hover:bg-danger-600",
  link: "rounded-md text-primary-700 underline-offset-4 hover:text-primary-800 hover:underline",
};

const sizes: Record<ButtonSize, string> = {
  sm: "h-9 px-3.5 text-sm",
  md: "h-11 px-5 text-[0.9375rem]",
  lg: "h-12 px-6 text-base",
  icon: "size-10 p-0",
};

export interface ButtonStyleProps {
  variant?: ButtonVariant | undefined;
  size?: ButtonSize | undefined;
  fullWidth?: boolean | undefined;
  className?: string | undefined;
}

export function buttonClasses({
  variant = "primary",
  size = "md",
  fullWidth,
  className,
}: ButtonStyleProps = {}): string {
  return cn(
    base,
    variants[variant],
    variant === "link" ? "h-auto px-0.5" : sizes[size],
    fullWidth && "w-full",
    className,
  );
}

export interface ButtonProps extends ComponentProps<"button">, ButtonStyleProps {
  /** Shows a spinner, disables the button and marks it busy. */
  loading?: boolean;
}

export function Button({
  variant,
  size,
  fullWidth,
  loading = false,
  className,
  disabled,
  type = "button",
  children,
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={buttonClasses({ variant, size, fullWidth, className })}
      {...props}
    >
      {loading && <Spinner className="size-4" />}
      {children}
    </button>
  );
}

export type ButtonLinkProps = ComponentProps<typeof Link> & ButtonStyleProps;

/** A router link that looks like a button (navigation stays a link for assistive tech). */
export function ButtonLink({ variant, size, fullWidth, className, ...props }: ButtonLinkProps) {
  return <Link className={buttonClasses({ variant, size, fullWidth, className })} {...props} />;
}

/**
 * A form's footer: Cancel (a link back to `cancelTo`) and the submit button passed as children.
 * On phones they stack with the submit button on top, within thumb's reach.
 */
export function FormActions({ cancelTo, children }: { cancelTo: string; children: ReactNode }) {
  return (
    <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
      <ButtonLink to={cancelTo} variant="secondary">
        Cancel
      </ButtonLink>
      {children}
    </div>
  );
}
