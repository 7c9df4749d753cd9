import type { LucideIcon } from "lucide-react";
import {
  Calculator,
  Infinity as InfinityIcon,
  LockKeyhole,
  MonitorSmartphone,
  Zap,
} from "lucide-react";
import { Container } from "../../components/ui/index.ts";
import { cn } from "../../lib/cn.ts";

interface Feature {
  title: string;
  text: string;
  Icon: LucideIcon;
  tone: string;
}

// The five points the landing page markets.
const features: Feature[] = [
  {
    title: "Real-time collaborative shopping",
    text: "Everyone in the session sees the cart change the moment someone adds, removes or updates an item.",
    Icon: Zap,
    tone: "bg-accent-100 text-accent-700",
  },
  {
    title: "Smart cart splitting",
    text: "Cartner tallies who added what, adds fees and tax, and shows each person's fair share to the cent.",
    Icon: Calculator,
    tone: "bg-success-100 text-success-700",
  },
  {
    title: "Session rooms with passcodes",
    text: "Every session gets its own code. Add a passcode and only the people you let in can join.",
    Icon: LockKeyhole,
    tone: "bg-primary-100 text-primary-700",
  },
  {
    title: "Device sync",
    text: "Start on your laptop, finish on your phone. Your sessions and carts follow you everywhere.",
    Icon: MonitorSmartphone,
    tone: "bg-primary-100 text-primary-700",
  },
  {
    title: "No limit on sessions",
    text: "Groceries with roommates, a gift with friends, a trip with family: run as many sessions as you like.",
    Icon: InfinityIcon,
    tone: "bg-accent-100 text-accent-700",
  },
];

export function Features() {
  return (
    <section
      aria-labelledby="features-title"
      className="below-the-fold py-16 [contain-intrinsic-size:auto_100rem] sm:py-24 lg:[contain-intrinsic-size:auto_57rem]"
    >
      <Container>
        <div className="mx-auto max-w-2xl text-center">
          <p className="font-display text-sm font-semibold tracking-widest text-accent-700 uppercase">
            Why Cartner
          </p>
          <h2 id="features-title" className="mt-3 text-3xl font-bold tracking-tight sm:text-4xl">
            Everything your group needs to shop as one
          </h2>
          <p className="mt-4 text-lg text-slate-600">
            No more screenshots of lists, duplicate orders or awkward maths after checkout.
          </p>
        </div>
        <ul className="mt-12 grid gap-5 sm:grid-cols-2 lg:grid-cols-6">
          {features.map(({ title, text, Icon, tone }, index) => (
            <li
              key={title}
              className={cn(
                "flex flex-col gap-4 rounded-card bg-surface p-6 shadow-soft ring-1 ring-slate-900/5 transition-shadow hover:shadow-lift lg:col-span-2",
                index === 3 && "lg:col-start-2",
              )}
            >
              <span className={cn("flex size-12 items-center justify-center rounded-2xl", tone)}>
                <Icon aria-hidden="true" className="size-6" />
              </span>
              <h3 className="text-lg font-semibold">{title}</h3>
              <p className="leading-relaxed text-slate-600">{text}</p>
            </li>
          ))}
        </ul>
      </Container>
    </section>
  );
}
