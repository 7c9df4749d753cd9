import { cn } from "../../lib/cn.ts";

/** A cart still being assembled, with a traffic cone: "this part is being built". Decorative. */
export function CartUnderConstruction({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 320 220"
      aria-hidden="true"
      focusable="false"
      className={cn("h-auto w-full", className)}
    >
      <ellipse cx="160" cy="110" rx="150" ry="96" fill="#EEF2FF" />
      <ellipse cx="160" cy="196" rx="120" ry="8" fill="#E2E8F0" />
      <path
        d="M96 84h132l-12 66H108L96 84Z"
        fill="#fff"
        stroke="#818CF8"
        strokeWidth="5"
        strokeDasharray="10 8"
        strokeLinejoin="round"
      />
      <path
        d="M96 84l-10-22H68"
        fill="none"
        stroke="#4F46E5"
        strokeWidth="7"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <path
        d="M108 150l3 16h100"
        fill="none"
        stroke="#4F46E5"
        strokeWidth="6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="124" cy="182" r="10" fill="#1E293B" />
      <circle cx="200" cy="182" r="10" fill="#1E293B" />
      <rect x="126" y="100" width="34" height="30" rx="5" fill="#FB923C" />
      <rect x="139" y="100" width="8" height="30" fill="#FED7AA" />
      <g transform="rotate(18 186 110)">
        <rect x="170" y="96" width="40" height="10" rx="5" fill="#94A3B8" />
        <circle cx="208" cy="101" r="9" fill="#94A3B8" />
        <circle cx="208" cy="101" r="4" fill="#EEF2FF" />
      </g>
      <path d="M252 190l14-62h8l14 62Z" fill="#F97316" />
      <path d="M258 164h24M262 146h16" stroke="#fff" strokeWidth="6" />
      <rect x="244" y="186" width="52" height="8" rx="3" fill="#C2410C" />
      <path d="M60 40l3 7 7 3-7 3-3 7-3-7-7-3 7-3 3-7Z" fill="#FDBA74" />
      <path d="M262 44l3 7 7 3-7 3-3 7-3-7-7-3 7-3 3-7Z" fill="#A5B4FC" />
    </svg>
  );
}
