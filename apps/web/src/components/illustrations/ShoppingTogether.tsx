import { cn } from "../../lib/cn.ts";

/**
 * Two friends filling one shared cart, with little "live" and "split" cards floating around them.
 * Our own flat illustration in the Cartner palette.
 */
export function ShoppingTogether({ className, title }: { className?: string; title?: string }) {
  const labelled = Boolean(title);
  return (
    <svg
      viewBox="0 0 480 400"
      className={cn("h-auto w-full", className)}
      role={labelled ? "img" : undefined}
      aria-hidden={labelled ? undefined : true}
      aria-label={title}
      focusable="false"
    >
      {/* backdrop */}
      <path
        d="M58 214C36 118 124 38 246 40c120 2 206 66 196 172-9 100-96 156-216 156C124 368 76 298 58 214Z"
        fill="#EEF2FF"
      />
      <circle cx="404" cy="300" r="26" fill="#FFEDD5" />
      <circle cx="70" cy="128" r="14" fill="#FFEDD5" />
      <ellipse cx="244" cy="352" rx="196" ry="13" fill="#E2E8F0" />

      {/* sparkles */}
      <path d="M132 30l4 9 9 4-9 4-4 9-4-9-9-4 9-4 4-9Z" fill="#FDBA74" />
      <path d="M452 168l3 7 7 3-7 3-3 7-3-7-7-3 7-3 3-7Z" fill="#A5B4FC" />
      <path d="M30 262l3 7 7 3-7 3-3 7-3-7-7-3 7-3 3-7Z" fill="#A5B4FC" />

      {/* "who's here" card */}
      <g>
        <rect x="34" y="58" width="136" height="50" rx="14" fill="#C7D2FE" />
        <rect x="30" y="54" width="136" height="50" rx="14" fill="#fff" />
        <circle cx="56" cy="79" r="12" fill="#F97316" />
        <circle cx="74" cy="79" r="12" fill="#818CF8" stroke="#fff" strokeWidth="3" />
        <rect x="94" y="70" width="56" height="7" rx="3.5" fill="#C7D2FE" />
        <rect x="94" y="84" width="36" height="7" rx="3.5" fill="#E2E8F0" />
        <circle cx="158" cy="62" r="6" fill="#22C55E" stroke="#fff" strokeWidth="3" />
      </g>

      {/* "split" card */}
      <g>
        <rect x="334" y="62" width="122" height="56" rx="14" fill="#C7D2FE" />
        <rect x="330" y="58" width="122" height="56" rx="14" fill="#fff" />
        <circle cx="358" cy="86" r="15" fill="#FFEDD5" />
        <path d="M358 86V71a15 15 0 0 1 0 30Z" fill="#F97316" />
        <rect x="382" y="74" width="54" height="7" rx="3.5" fill="#C7D2FE" />
        <rect x="382" y="89" width="38" height="7" rx="3.5" fill="#BBF7D0" />
      </g>

      {/* heart */}
      <path
        d="M240 84c-6-10-22-8-22 4 0 9 14 17 22 23 8-6 22-14 22-23 0-12-16-14-22-4Z"
        fill="#F97316"
        opacity=".9"
      />

      {/* items in the cart (drawn first so the basket overlaps them) */}
      <rect x="188" y="158" width="52" height="48" rx="6" fill="#F97316" />
      <rect x="208" y="158" width="12" height="48" fill="#FDBA74" />
      <path d="M246 164h50l-4 44h-42l-4-44Z" fill="#22C55E" />
      <path d="M258 166c0-16 26-16 26 0" fill="none" stroke="#15803D" strokeWidth="5" />
      <rect x="298" y="140" width="20" height="68" rx="8" fill="#A5B4FC" />
      <rect x="302" y="130" width="12" height="14" rx="3" fill="#312E81" />
      <rect x="304" y="160" width="8" height="26" rx="3" fill="#EEF2FF" />

      {/* cart */}
      <path
        d="M172 200h172l-15 86H186l-14-86Z"
        fill="#4F46E5"
        stroke="#3730A3"
        strokeWidth="4"
        strokeLinejoin="round"
      />
      <path
        d="M176 228h164M181 257h153M215 202l4 82M258 202v82M301 202l-4 82"
        stroke="#6366F1"
        strokeWidth="4"
      />
      <path
        d="M172 200l-12-26h-22"
        fill="none"
        stroke="#312E81"
        strokeWidth="8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <path
        d="M186 286l4 20h134"
        fill="none"
        stroke="#312E81"
        strokeWidth="7"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="204" cy="324" r="13" fill="#1E293B" />
      <circle cx="204" cy="324" r="5" fill="#E2E8F0" />
      <circle cx="306" cy="324" r="13" fill="#1E293B" />
      <circle cx="306" cy="324" r="5" fill="#E2E8F0" />

      {/* left friend, pushing the cart */}
      <rect x="84" y="268" width="16" height="76" rx="7" fill="#312E81" />
      <rect x="104" y="268" width="16" height="76" rx="7" fill="#3730A3" />
      <ellipse cx="90" cy="346" rx="13" ry="6" fill="#1E293B" />
      <ellipse cx="114" cy="346" rx="13" ry="6" fill="#1E293B" />
      <rect x="74" y="180" width="56" height="102" rx="24" fill="#F97316" />
      <path d="M102 180v30" stroke="#EA580C" strokeWidth="4" strokeLinecap="round" />
      <path
        d="M118 202l24-26"
        stroke="#EA580C"
        strokeWidth="14"
        strokeLinecap="round"
        fill="none"
      />
      <circle cx="143" cy="175" r="8" fill="#F2C3A0" />
      <rect x="94" y="164" width="16" height="20" rx="6" fill="#F2C3A0" />
      <circle cx="102" cy="148" r="22" fill="#F2C3A0" />
      <path
        d="M80 146c-2-20 14-30 28-28 14 1 22 12 20 22-10-2-18-8-22-14-4 8-14 16-26 20Z"
        fill="#1E293B"
      />
      <circle cx="110" cy="150" r="2.5" fill="#1E293B" />
      <path
        d="M108 160c3 2 7 2 9-1"
        stroke="#9A3412"
        strokeWidth="2.5"
        strokeLinecap="round"
        fill="none"
      />

      {/* right friend, adding a box */}
      <rect x="360" y="268" width="16" height="76" rx="7" fill="#334155" />
      <rect x="380" y="268" width="16" height="76" rx="7" fill="#475569" />
      <ellipse cx="366" cy="346" rx="13" ry="6" fill="#1E293B" />
      <ellipse cx="390" cy="346" rx="13" ry="6" fill="#1E293B" />
      <rect x="350" y="180" width="56" height="102" rx="24" fill="#818CF8" />
      <path
        d="M362 198l-20-58"
        stroke="#6366F1"
        strokeWidth="14"
        strokeLinecap="round"
        fill="none"
      />
      <path d="M396 204l8 44" stroke="#6366F1" strokeWidth="14" strokeLinecap="round" fill="none" />
      <circle cx="404" cy="252" r="8" fill="#8D5A3B" />
      <g transform="rotate(-10 342 112)">
        <rect x="324" y="96" width="36" height="30" rx="5" fill="#FB923C" />
        <rect x="338" y="96" width="8" height="30" fill="#FED7AA" />
      </g>
      <circle cx="341" cy="134" r="8" fill="#8D5A3B" />
      <rect x="370" y="164" width="16" height="20" rx="6" fill="#8D5A3B" />
      <circle cx="378" cy="148" r="22" fill="#8D5A3B" />
      <circle cx="384" cy="118" r="12" fill="#0F172A" />
      <path d="M356 150c-2-18 8-28 22-28s24 10 22 28c-8-8-28-12-44 0Z" fill="#0F172A" />
      <circle cx="370" cy="152" r="2.5" fill="#0F172A" />
      <path
        d="M364 162c3 3 8 3 11 0"
        stroke="#FED7AA"
        strokeWidth="2.5"
        strokeLinecap="round"
        fill="none"
      />
    </svg>
  );
}
