import type { ReactNode } from "react";
import { RefreshCw, TriangleAlert } from "lucide-react";
import { cn } from "../../lib/cn.ts";
import { Button } from "./Button.tsx";
import { Card, CardBody } from "./Card.tsx";
import { Spinner } from "./Spinner.tsx";

/** A load failure with a retry button. */
export function LoadError({
  title,
  message,
  onRetry,
  retrying = false,
}: {
  title: string;
  message: string;
  onRetry: () => void;
  retrying?: boolean;
}) {
  return (
    <Card>
      <CardBody className="flex flex-col items-center gap-3 text-center">
        <span className="flex size-14 items-center justify-center rounded-full bg-danger-50 text-danger-600">
          <TriangleAlert aria-hidden="true" className="size-7" />
        </span>
        <p className="font-display text-lg font-semibold text-ink">{title}</p>
        <p className="max-w-sm text-sm text-slate-600">{message}</p>
        <Button onClick={onRetry} loading={retrying} className="mt-1">
          {!retrying && <RefreshCw aria-hidden="true" className="size-4" />}
          Try again
        </Button>
      </CardBody>
    </Card>
  );
}

/** A friendly empty state: "sm" inside a panel, "lg" for a whole page. */
export function EmptyState({
  icon,
  title,
  children,
  className,
  size = "sm",
}: {
  icon: ReactNode;
  title: string;
  children?: ReactNode;
  className?: string;
  size?: "sm" | "lg";
}) {
  const large = size === "lg";
  return (
    <div
      className={cn(
        "flex flex-col items-center rounded-card border border-dashed border-slate-300 bg-white/60 px-6 text-center",
        large ? "gap-3 py-12" : "gap-2 py-10",
        className,
      )}
    >
      <span
        className={cn(
          "flex items-center justify-center rounded-full bg-primary-50 text-primary-600",
          large ? "size-14" : "size-12",
        )}
      >
        {icon}
      </span>
      <p className={cn("font-display font-semibold text-ink", large ? "text-lg" : "text-base")}>
        {title}
      </p>
      {children ? (
        <div
          className={cn(
            "max-w-sm text-sm text-slate-600",
            large && "flex flex-col items-center gap-3",
          )}
        >
          {children}
        </div>
      ) : null}
    </div>
  );
}

/** A panel's one-line loading state, announced to screen readers. */
export function InlineLoading({
  children,
  className,
}: {
  children: ReactNode;
  className?: string;
}) {
  return (
    <p role="status" className={cn("flex items-center gap-2 text-sm text-slate-600", className)}>
      <Spinner className="size-4 text-primary-600" />
      {children}
    </p>
  );
}

/** A panel's load failure with a small retry button. */
export function InlineLoadError({
  message,
  onRetry,
  retrying = false,
  className,
}: {
  message: string;
  onRetry: () => void;
  retrying?: boolean;
  className?: string;
}) {
  return (
    <div className={cn("flex flex-col items-start gap-3 text-sm text-slate-600", className)}>
      <p>{message}</p>
      <Button size="sm" variant="secondary" loading={retrying} onClick={onRetry}>
        {!retrying && <RefreshCw aria-hidden="true" className="size-4" />}
        Try again
      </Button>
    </div>
  );
}

/** A panel's one-line empty state. */
export function InlineEmpty({
  icon,
  children,
  className,
}: {
  icon: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <p className={cn("flex items-center gap-2 text-sm text-slate-500", className)}>
      {icon}
      {children}
    </p>
  );
}
