import { cn } from "../../lib/cn.ts";

/** Cartner's mark: a cart in an indigo tile with an orange "live" dot. Decorative; pair it with text. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 64 64"
      aria-hidden="true"
      focusable="false"
      className={cn("size-9 shrink-0", className)}
    >
      <rect width="64" height="64" rx="16" fill="#4F46E5" />
      <path
        d="M14 18h6l5 22h20l5-15H23"
        fill="none"
        stroke="#fff"
        strokeWidth="5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="28" cy="48" r="4" fill="#fff" />
      <circle cx="42" cy="48" r="4" fill="#fff" />
      <circle cx="47" cy="15" r="6" fill="#F97316" />
    </svg>
  );
}
