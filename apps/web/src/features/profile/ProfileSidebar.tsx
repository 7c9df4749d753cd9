import { BadgeCheck, CircleCheck, CircleDashed, Package, Users } from "lucide-react";
import type { Profile } from "@cartner/contract";
import { useOrderCount } from "../../api/orders.ts";
import { Avatar, Badge, Card } from "../../components/ui/index.ts";
import { Link } from "../../lib/router.tsx";

/** The profile page's side card: avatar, sessions joined, what is verified, orders. */
export function ProfileSidebar({ profile }: { profile: Profile }) {
  const sessions = profile.sessions.length;
  const provided: Array<{ label: string; done: boolean }> = [
    { label: "Government ID", done: false },
    { label: "Email address", done: true },
    { label: "Phone number", done: profile.phoneNumber.trim() !== "" },
    { label: "Work email", done: false },
  ];
  return (
    <Card className="flex flex-col gap-6 p-6" role="complementary" aria-label="Account summary">
      <div className="flex flex-col items-center gap-3 text-center">
        <Avatar
          seed={profile.user._id}
          name={profile.user.name}
          src={profile.avatar || undefined}
          alt={`${profile.user.name}'s avatar`}
          className="size-28 ring-4 ring-primary-100"
        />
        <p className="text-sm text-slate-600">
          <Users aria-hidden="true" className="mr-1 inline size-4 align-[-3px]" />
          {sessions} {sessions === 1 ? "session" : "sessions"} joined
        </p>
        <Badge tone="success">
          <BadgeCheck aria-hidden="true" className="size-3.5" />
          Verified
        </Badge>
        <p className="max-w-full text-sm font-medium wrap-anywhere text-slate-800">
          {profile.user.email}
        </p>
      </div>

      <section aria-labelledby="provided-info" className="flex flex-col gap-3">
        <h2 id="provided-info" className="text-base font-bold">
          Provided information
        </h2>
        <ul className="flex flex-col gap-2 text-sm">
          {provided.map(({ label, done }) => (
            <li key={label} className="flex items-center gap-2">
              {done ? (
                <CircleCheck aria-hidden="true" className="size-4 text-success-600" />
              ) : (
                <CircleDashed aria-hidden="true" className="size-4 text-slate-400" />
              )}
              <span className={done ? "text-slate-800" : "text-slate-500"}>{label}</span>
              <span className="sr-only">{done ? "(provided)" : "(not provided)"}</span>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="orders-title" className="flex flex-col gap-2">
        <h2 id="orders-title" className="text-base font-bold">
          Orders
        </h2>
        <OrdersCount />
      </section>
    </Card>
  );
}

/** How many orders the user has, with a link to them (My Orders). */
function OrdersCount() {
  const { count = 0, more = false } = useOrderCount().data ?? {};
  if (count === 0) {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-500">
        <Package aria-hidden="true" className="size-4" />
        No orders yet
      </p>
    );
  }
  return (
    <Link
      to="/orders"
      className="flex items-center gap-2 self-start rounded-md text-sm font-semibold text-primary-700 hover:underline"
    >
      <Package aria-hidden="true" className="size-4" />
      {more ? `${count}+ orders` : count === 1 ? "1 order" : `${count} orders`}
    </Link>
  );
}
