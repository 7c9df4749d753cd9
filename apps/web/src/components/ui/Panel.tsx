import { useId, type ComponentType, type ReactNode } from "react";
import { cn } from "../../lib/cn.ts";

/**
 * A titled card section of a page (the items, shares, split and total of a cart, summary or
 * order): a region named by its heading, with an optional icon and a line under the heading.
 */
export function Panel({
  title,
  icon: Icon,
  description,
  className,
  children,
}: {
  title: ReactNode;
  icon?: ComponentType<{ className?: string; "aria-hidden"?: boolean | "true" }>;
  description?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  const headingId = useId();
  const heading = (
    <h2 id={headingId} className="flex items-center gap-2 text-lg font-bold sm:text-xl">
      {Icon && <Icon aria-hidden="true" className="size-5 text-primary-600" />}
      {title}
    </h2>
  );
  return (
    <section
      aria-labelledby={headingId}
      className={cn(
        "flex flex-col gap-4 rounded-card bg-surface p-4 shadow-soft ring-1 ring-slate-900/5 sm:p-6",
        className,
      )}
    >
      {description ? (
        <div className="flex flex-col gap-1">
          {heading}
          <p className="text-sm text-slate-600">{description}</p>
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  );
}
