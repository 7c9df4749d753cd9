import type { ComponentType } from "react";
import {
  AppleMark,
  FacebookMark,
  GoogleMark,
} from "../../components/illustrations/SocialIcons.tsx";

const providers: { name: string; Icon: ComponentType<{ className?: string }> }[] = [
  { name: "Google", Icon: GoogleMark },
  { name: "Apple", Icon: AppleMark },
  { name: "Facebook", Icon: FacebookMark },
];

/** Social sign-in icons are shown as Coming Soon. */
export function SocialSignIn() {
  return (
    <div className="mt-8">
      <div className="flex items-center gap-3 text-sm text-slate-500">
        <span className="h-px flex-1 bg-slate-200" />
        <span>or continue with</span>
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <ul className="mt-4 grid grid-cols-3 gap-3">
        {providers.map(({ name, Icon }) => {
          const label = `Continue with ${name} — Coming Soon`;
          return (
            <li key={name}>
              <button
                type="button"
                disabled
                aria-label={label}
                title={label}
                className="flex h-11 w-full cursor-not-allowed items-center justify-center rounded-xl bg-slate-50 text-slate-500 ring-1 ring-slate-200 ring-inset"
              >
                <Icon className="size-5" />
              </button>
            </li>
          );
        })}
      </ul>
      <p className="mt-2 text-center text-xs font-medium text-slate-500">Coming Soon</p>
    </div>
  );
}
