import { cn } from "../../lib/cn.ts";

/** Shopping bags, a parcel and a price tag on a shelf: the marketplace banner's art. Decorative. */
export function MarketplaceIllustration({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 320 220"
      aria-hidden="true"
      focusable="false"
      className={cn("h-auto w-full", className)}
    >
      <circle cx="168" cy="112" r="100" fill="#E0E7FF" />
      <circle cx="282" cy="40" r="14" fill="#FFEDD5" />
      <circle cx="40" cy="176" r="9" fill="#FFEDD5" />
      <path d="M276 18v10M271 23h10" stroke="#FB923C" strokeWidth="3" strokeLinecap="round" />
      <path d="M52 58v8M48 62h8" stroke="#818CF8" strokeWidth="3" strokeLinecap="round" />

      {/* shelf */}
      <rect x="40" y="186" width="250" height="10" rx="5" fill="#C7D2FE" />

      {/* parcel */}
      <g>
        <rect x="58" y="128" width="70" height="58" rx="8" fill="#FDBA74" />
        <rect x="58" y="128" width="70" height="16" rx="8" fill="#FB923C" />
        <rect x="86" y="128" width="14" height="58" fill="#FFEDD5" opacity="0.9" />
        <rect x="70" y="160" width="18" height="4" rx="2" fill="#FFEDD5" />
      </g>

      {/* big bag */}
      <g>
        <path
          d="M146 84c0-16 10-28 24-28s24 12 24 28"
          fill="none"
          stroke="#312E81"
          strokeWidth="6"
          strokeLinecap="round"
        />
        <path d="M128 84h84l8 102h-100z" fill="#4F46E5" />
        <path d="M128 84h84l2 22h-88z" fill="#6366F1" />
        <circle cx="148" cy="100" r="4" fill="#312E81" />
        <circle cx="192" cy="100" r="4" fill="#312E81" />
        {/* heart: shopping together */}
        <path
          d="M170 158c-14-9-20-16-20-24a10 10 0 0 1 20-3 10 10 0 0 1 20 3c0 8-6 15-20 24z"
          fill="#fff"
        />
      </g>

      {/* small bag */}
      <g>
        <path
          d="M232 124c0-10 6-18 15-18s15 8 15 18"
          fill="none"
          stroke="#9A3412"
          strokeWidth="5"
          strokeLinecap="round"
        />
        <path d="M220 124h54l5 62h-64z" fill="#F97316" />
        <rect x="230" y="146" width="34" height="6" rx="3" fill="#FFEDD5" />
        <rect x="236" y="158" width="22" height="6" rx="3" fill="#FED7AA" />
      </g>

      {/* price tag */}
      <g transform="rotate(-14 250 70)">
        <path d="M222 56h40l14 14-14 14h-40a6 6 0 0 1-6-6V62a6 6 0 0 1 6-6z" fill="#fff" />
        <path
          d="M222 56h40l14 14-14 14h-40a6 6 0 0 1-6-6V62a6 6 0 0 1 6-6z"
          fill="none"
          stroke="#A5B4FC"
          strokeWidth="2.5"
        />
        <circle cx="262" cy="70" r="3.5" fill="#A5B4FC" />
        <rect x="226" y="64" width="26" height="5" rx="2.5" fill="#4F46E5" />
        <rect x="226" y="73" width="16" height="4" rx="2" fill="#C7D2FE" />
      </g>
    </svg>
  );
}
