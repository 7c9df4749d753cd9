import type { ReactNode } from "react";
import { CircleCheck } from "lucide-react";
import { SharedCart } from "../../components/illustrations/SharedCart.tsx";
import { Container } from "../../components/ui/index.ts";

interface AuthShellProps {
  /** Document title and page heading. */
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}

const perks = [
  "One live cart for the whole group",
  "A fair split, fees and tax included",
  "Private sessions with passcodes",
];

/** The two-panel frame of the sign-in pages: a friendly brand panel and the form. */
export function AuthShell({ title, subtitle, children }: AuthShellProps) {
  return (
    <Container className="py-8 sm:py-14">
      <title>{`${title} — Cartner`}</title>
      <div className="mx-auto grid max-w-5xl overflow-hidden rounded-card bg-surface shadow-soft ring-1 ring-slate-900/5 lg:grid-cols-[1fr_1.1fr]">
        <aside className="hidden flex-col justify-between gap-8 bg-linear-to-br from-primary-50 via-primary-50 to-accent-50 p-10 lg:flex">
          <div>
            <p className="font-display text-2xl leading-snug font-bold text-ink">
              Shopping is better together.
            </p>
            <ul className="mt-5 space-y-3">
              {perks.map((perk) => (
                <li key={perk} className="flex items-center gap-2.5 text-slate-700">
                  <CircleCheck aria-hidden="true" className="size-5 text-success-600" />
                  {perk}
                </li>
              ))}
            </ul>
          </div>
          <SharedCart className="mx-auto max-w-sm" />
        </aside>
        <div className="px-5 py-8 sm:px-10 sm:py-12">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
          {subtitle ? <div className="mt-2 text-slate-600">{subtitle}</div> : null}
          <div className="mt-8">{children}</div>
        </div>
      </div>
    </Container>
  );
}
