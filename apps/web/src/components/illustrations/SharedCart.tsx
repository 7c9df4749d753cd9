import { cn } from "../../lib/cn.ts";

/** Two phones showing the same cart, kept in sync: Cartner's shared cart. Decorative. */
export function SharedCart({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 400 320"
      aria-hidden="true"
      focusable="false"
      className={cn("h-auto w-full", className)}
    >
      <circle cx="200" cy="160" r="140" fill="#E0E7FF" />
      <circle cx="330" cy="60" r="18" fill="#FFEDD5" />
      <circle cx="64" cy="250" r="12" fill="#FFEDD5" />
      <ellipse cx="200" cy="298" rx="150" ry="10" fill="#C7D2FE" />

      {/* left phone */}
      <g transform="rotate(-6 120 170)">
        <rect x="62" y="58" width="116" height="220" rx="22" fill="#1E293B" />
        <rect x="70" y="70" width="100" height="196" rx="15" fill="#fff" />
        <rect x="102" y="76" width="36" height="6" rx="3" fill="#1E293B" />
        <rect x="80" y="96" width="80" height="30" rx="9" fill="#EEF2FF" />
        <path
          d="M88 104h5l4 13h14l4-9H96"
          fill="none"
          stroke="#4F46E5"
          strokeWidth="3"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        <rect x="124" y="106" width="28" height="6" rx="3" fill="#A5B4FC" />
        <rect x="80" y="136" width="18" height="18" rx="5" fill="#FB923C" />
        <rect x="104" y="139" width="46" height="5" rx="2.5" fill="#CBD5E1" />
        <rect x="104" y="148" width="28" height="5" rx="2.5" fill="#E2E8F0" />
        <rect x="80" y="164" width="18" height="18" rx="5" fill="#22C55E" />
        <rect x="104" y="167" width="40" height="5" rx="2.5" fill="#CBD5E1" />
        <rect x="104" y="176" width="24" height="5" rx="2.5" fill="#E2E8F0" />
        <rect x="80" y="192" width="18" height="18" rx="5" fill="#818CF8" />
        <rect x="104" y="195" width="44" height="5" rx="2.5" fill="#CBD5E1" />
        <rect x="104" y="204" width="30" height="5" rx="2.5" fill="#E2E8F0" />
        <rect x="80" y="232" width="80" height="22" rx="11" fill="#4F46E5" />
      </g>

      {/* right phone */}
      <g transform="rotate(6 280 170)">
        <rect x="222" y="58" width="116" height="220" rx="22" fill="#1E293B" />
        <rect x="230" y="70" width="100" height="196" rx="15" fill="#fff" />
        <rect x="262" y="76" width="36" height="6" rx="3" fill="#1E293B" />
        <rect x="240" y="96" width="80" height="30" rx="9" fill="#EEF2FF" />
        <path
          d="M248 104h5l4 13h14l4-9H256"
          fill="none"
          stroke="#4F46E5"
          strokeWidth="3"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        <rect x="284" y="106" width="28" height="6" rx="3" fill="#A5B4FC" />
        <rect x="240" y="136" width="18" height="18" rx="5" fill="#FB923C" />
        <rect x="264" y="139" width="46" height="5" rx="2.5" fill="#CBD5E1" />
        <rect x="264" y="148" width="28" height="5" rx="2.5" fill="#E2E8F0" />
        <rect x="240" y="164" width="18" height="18" rx="5" fill="#22C55E" />
        <rect x="264" y="167" width="40" height="5" rx="2.5" fill="#CBD5E1" />
        <rect x="264" y="176" width="24" height="5" rx="2.5" fill="#E2E8F0" />
        <rect x="240" y="192" width="18" height="18" rx="5" fill="#818CF8" />
        <rect x="264" y="195" width="44" height="5" rx="2.5" fill="#CBD5E1" />
        <rect x="264" y="204" width="30" height="5" rx="2.5" fill="#E2E8F0" />
        <circle cx="258" cy="243" r="9" fill="#F97316" />
        <circle cx="272" cy="243" r="9" fill="#818CF8" stroke="#fff" strokeWidth="2" />
        <rect x="288" y="238" width="32" height="10" rx="5" fill="#BBF7D0" />
      </g>

      {/* sync arrows */}
      <g fill="none" stroke="#F97316" strokeWidth="5" strokeLinecap="round" strokeLinejoin="round">
        <path d="M178 130c14-12 30-12 44 0" />
        <path d="M214 120l8 10-12 3" />
        <path d="M222 196c-14 12-30 12-44 0" />
        <path d="M186 206l-8-10 12-3" />
      </g>
      <path d="M350 120l3 7 7 3-7 3-3 7-3-7-7-3 7-3 3-7Z" fill="#F97316" />
      <path d="M44 110l3 7 7 3-7 3-3 7-3-7-7-3 7-3 3-7Z" fill="#818CF8" />
    </svg>
  );
}
