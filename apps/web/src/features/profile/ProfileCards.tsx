import { useId, type ReactNode } from "react";
import {
  Briefcase,
  Globe,
  KeyRound,
  Languages,
  MapPin,
  Package,
  PencilLine,
  ShoppingBag,
  ShoppingCart,
} from "lucide-react";
import type { Profile } from "@cartner/contract";
import { Badge, ButtonLink, Card } from "../../components/ui/index.ts";
import { Link } from "../../lib/router.tsx";

/* The profile page's cards: about you, my carts, and the products still to come. */

function Detail({
  icon,
  label,
  children,
}: {
  icon: ReactNode;
  label: string;
  children: ReactNode;
}) {
  return (
    // A <dl> group may hold only <dt> and <dd>, so the icon sits inside the term.
    <div className="relative min-h-9 min-w-0 pl-12">
      <dt className="text-sm font-semibold text-slate-500">
        <span className="absolute top-0 left-0 flex size-9 items-center justify-center rounded-xl bg-primary-50 text-primary-600">
          {icon}
        </span>
        {label}
      </dt>
      <dd className="break-words text-slate-800">{children}</dd>
    </div>
  );
}

// Slate 500, not 400: placeholder text still needs 4.5:1 contrast on white.
const notSet = <span className="text-slate-500 italic">Not set</span>;

export function AboutCard({ profile }: { profile: Profile }) {
  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId} className="flex flex-col gap-5 p-5 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={titleId} className="text-lg font-bold sm:text-xl">
          About you
        </h2>
        <div className="flex flex-wrap gap-2">
          <ButtonLink to="/editme" variant="secondary" size="sm">
            <PencilLine aria-hidden="true" className="size-4" />
            Edit profile
          </ButtonLink>
          <ButtonLink to="/editpass" variant="secondary" size="sm">
            <KeyRound aria-hidden="true" className="size-4" />
            Change email or password
          </ButtonLink>
        </div>
      </div>
      <p className="break-words whitespace-pre-line text-slate-700">
        {profile.bio.trim() || <span className="text-slate-500 italic">No bio yet.</span>}
      </p>
      <dl className="grid gap-4 sm:grid-cols-3">
        <Detail icon={<MapPin aria-hidden="true" className="size-4" />} label="Location">
          {profile.location.trim() || notSet}
        </Detail>
        <Detail icon={<Languages aria-hidden="true" className="size-4" />} label="Languages">
          {profile.languages.length > 0 ? profile.languages.join(", ") : notSet}
        </Detail>
        <Detail icon={<Briefcase aria-hidden="true" className="size-4" />} label="Occupation">
          {profile.occupation.trim() || notSet}
        </Detail>
      </dl>
    </Card>
  );
}

export function MyCarts({ carts }: { carts: Profile["carts"] }) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="flex flex-col gap-4">
      <h2 id={titleId} className="text-lg font-bold sm:text-xl">
        My Carts
      </h2>
      {carts.length === 0 ? (
        <Card className="flex flex-col items-start gap-3 p-5 text-slate-600 sm:p-6">
          <p>No carts yet. Join or start a session to shop together.</p>
          <ButtonLink to="/sessions" variant="secondary" size="sm">
            Go to sessions
          </ButtonLink>
        </Card>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {carts.map((cart) => (
            <li key={cart._id}>
              <Card className="flex h-full flex-col gap-3 p-5">
                <div className="flex items-start justify-between gap-2">
                  <h3 className="min-w-0 font-display font-bold break-words">
                    {cart.sessionId.sessionName}
                  </h3>
                  <Badge tone={cart.status === "active" ? "accent" : "neutral"}>
                    {cart.status === "active" ? "Active" : "Completed"}
                  </Badge>
                </div>
                <p className="flex items-center gap-2 text-sm text-slate-600">
                  <ShoppingCart aria-hidden="true" className="size-4" />
                  {cart.itemCount} {cart.itemCount === 1 ? "item" : "items"}
                </p>
                <Link
                  to={`/cart/id/${encodeURIComponent(cart._id)}`}
                  className="mt-auto text-sm font-semibold text-primary-700 hover:underline"
                >
                  View cart
                  <span className="sr-only"> for {cart.sessionId.sessionName}</span>
                </Link>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function ComingSoonProducts() {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id={titleId} className="text-lg font-bold sm:text-xl">
          Products for you
        </h2>
        <Badge tone="accent">Coming Soon</Badge>
      </div>
      <Card className="flex flex-col gap-4 p-5 sm:p-6">
        <ul aria-hidden="true" className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {[ShoppingBag, Globe, Package, ShoppingCart].map((Icon, index) => (
            <li
              key={index}
              className="flex aspect-square items-center justify-center rounded-xl bg-linear-to-br from-primary-50 to-accent-50 text-primary-300"
            >
              <Icon className="size-8" />
            </li>
          ))}
        </ul>
        <p className="text-sm text-slate-600">
          Picks based on what your groups shop for are coming soon.
        </p>
      </Card>
    </section>
  );
}
