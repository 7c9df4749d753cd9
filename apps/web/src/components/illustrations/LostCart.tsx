import { cn } from "../../lib/cn.ts";

/** An empty cart with a question mark, for the page-not-found screen. Decorative. */
export function LostCart({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 320 220"
      aria-hidden="true"
      focusable="false"
      className={cn("h-auto w-full", className)}
    >
      <ellipse cx="160" cy="110" rx="150" ry="96" fill="#FFF7ED" />
      <ellipse cx="160" cy="196" rx="120" ry="8" fill="#E2E8F0" />
      <path
        d="M96 90h132l-12 62H108L96 90Z"
        fill="#4F46E5"
        stroke="#3730A3"
        strokeWidth="4"
        strokeLinejoin="round"
      />
      <path d="M100 112h124M104 132h116M140 92v58M184 92v58" stroke="#6366F1" strokeWidth="4" />
      <path
        d="M96 90l-10-22H68"
        fill="none"
        stroke="#312E81"
        strokeWidth="7"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <path
        d="M108 152l3 16h100"
        fill="none"
        stroke="#312E81"
        strokeWidth="6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="124" cy="184" r="10" fill="#1E293B" />
      <circle cx="200" cy="184" r="10" fill="#1E293B" />
      <circle cx="222" cy="50" r="28" fill="#F97316" />
      <path
        d="M212 42a10 10 0 1 1 14 9c-3 1-4 3-4 6"
        fill="none"
        stroke="#fff"
        strokeWidth="6"
        strokeLinecap="round"
      />
      <circle cx="222" cy="66" r="3.5" fill="#fff" />
      <path d="M60 48l3 7 7 3-7 3-3 7-3-7-7-3 7-3 3-7Z" fill="#A5B4FC" />
    </svg>
  );
}
