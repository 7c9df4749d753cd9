import type { LucideIcon } from "lucide-react";
import { PlusCircle, ShoppingCart, Split, UserPlus } from "lucide-react";
import { Container } from "../../components/ui/index.ts";

const steps: { title: string; text: string; Icon: LucideIcon }[] = [
  {
    title: "Create a session",
    text: "Give it a name, pick Couple, Friends, Family or Solo, and add a passcode if you like.",
    Icon: PlusCircle,
  },
  {
    title: "Invite your people",
    text: "Share the session code and passcode, or invite friends by email straight from the lobby.",
    Icon: UserPlus,
  },
  {
    title: "Fill one cart together",
    text: "Everyone browses the marketplace and adds to the same cart, and sees every change live.",
    Icon: ShoppingCart,
  },
  {
    title: "Split it fairly",
    text: "Each person sees their share, fees and tax included, before anyone pays a cent.",
    Icon: Split,
  },
];

/** The "easier experience" list: how a session works, in four steps. */
export function HowItWorks() {
  return (
    <section
      aria-labelledby="how-title"
      className="below-the-fold bg-linear-to-b from-primary-50 to-canvas py-16 [contain-intrinsic-size:auto_78rem] sm:py-24 lg:[contain-intrinsic-size:auto_43rem]"
    >
      <Container className="grid gap-12 lg:grid-cols-[1fr_1.4fr] lg:items-center">
        <div>
          <p className="font-display text-sm font-semibold tracking-widest text-accent-700 uppercase">
            How it works
          </p>
          <h2 id="how-title" className="mt-3 text-3xl font-bold tracking-tight sm:text-4xl">
            An easier experience, from list to checkout
          </h2>
          <p className="mt-4 text-lg text-slate-600">
            Four steps replace the group chat, the shared spreadsheet and the &ldquo;who owes
            what?&rdquo; conversation.
          </p>
        </div>
        <ol className="grid gap-4 sm:grid-cols-2">
          {steps.map(({ title, text, Icon }, index) => (
            <li
              key={title}
              className="relative rounded-card bg-surface p-6 shadow-soft ring-1 ring-slate-900/5"
            >
              <div className="flex items-center gap-3">
                <span className="flex size-10 items-center justify-center rounded-full bg-primary-600 font-display text-base font-bold text-white">
                  <span className="sr-only">Step </span>
                  {index + 1}
                </span>
                <Icon aria-hidden="true" className="size-5 text-primary-600" />
              </div>
              <h3 className="mt-4 text-lg font-semibold">{title}</h3>
              <p className="mt-1.5 leading-relaxed text-slate-600">{text}</p>
            </li>
          ))}
        </ol>
      </Container>
    </section>
  );
}
