import { useEffect, useId, type ReactNode } from "react";
import { Link, useNavigate } from "../../lib/router.tsx";
import { toast } from "../../lib/toast.ts";
import {
  BadgeCheck,
  Briefcase,
  CalendarDays,
  CircleCheck,
  CircleDashed,
  CircleHelp,
  Headset,
  Globe,
  KeyRound,
  Languages,
  LogOut,
  MapPin,
  Package,
  PencilLine,
  ShoppingBag,
  ShoppingCart,
  Users,
  UserRoundPlus,
} from "lucide-react";
import { PROFILE_EMPTY_REDIRECT_MS, type Profile } from "@cartner/contract";
import { useOrderCount } from "../../api/orders.ts";
import {
  Avatar,
  Badge,
  ButtonLink,
  Card,
  Container,
  Spinner,
  buttonClasses,
} from "../../components/ui/index.ts";
import { cn } from "../../lib/cn.ts";
import { useLogout } from "../../shared/use-logout.ts";
import { DevicesCard, YourDataCard } from "./AccountCards.tsx";
import { isProfileEmpty, joinedYear } from "./profile-model.ts";
import { useMyProfile } from "../../api/profile.ts";

export const LOAD_PROFILE_FAILED_MESSAGE = "Failed to load profile";
const LOAD_FAILED_TOAST_ID = "profile-load-failed";

/** /profile (SPEC section 2, "Profile"). */
export function ProfilePage() {
  const profile = useMyProfile();

  useEffect(() => {
    if (profile.isError) {
      toast.error(LOAD_PROFILE_FAILED_MESSAGE, { toastId: LOAD_FAILED_TOAST_ID, autoClose: 8000 });
    }
  }, [profile.isError]);

  return (
    <Container className="py-8 sm:py-12">
      <title>Profile — Cartner</title>
      {profile.isPending ? (
        <ProfileSkeleton />
      ) : profile.isError ? (
        <ProfileLoadFailed />
      ) : isProfileEmpty(profile.data) ? (
        <EmptyProfile name={profile.data.user.name} />
      ) : (
        <ProfileView profile={profile.data} />
      )}
    </Container>
  );
}

function ProfileLoadFailed() {
  return (
    <Card className="mx-auto flex max-w-xl flex-col items-center gap-4 p-8 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-primary-50 text-primary-600">
        <UserRoundPlus aria-hidden="true" className="size-6" />
      </span>
      <h1 className="text-2xl font-bold tracking-tight">Profile</h1>
      <p className="text-slate-600">
        We could not load your profile. If you have not set one up yet, create it now.
      </p>
      <ButtonLink to="/editme">Create your profile</ButtonLink>
    </Card>
  );
}

function EmptyProfile({ name }: { name: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = window.setTimeout(() => {
      navigate("/editme", { replace: true });
    }, PROFILE_EMPTY_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [navigate]);

  return (
    <Card className="mx-auto flex max-w-xl flex-col items-center gap-4 p-8 text-center">
      <Spinner className="size-6 text-primary-600" />
      <h1 className="text-2xl font-bold tracking-tight">Your profile is empty</h1>
      <p role="status" className="text-slate-600">
        {name ? `${name}, tell` : "Tell"} your group a little about yourself. Taking you to the
        profile editor…
      </p>
      <ButtonLink to="/editme" variant="secondary">
        Edit profile now
      </ButtonLink>
    </Card>
  );
}

function ProfileSkeleton() {
  return (
    <div role="status" aria-label="Loading profile" className="grid gap-6 lg:grid-cols-[20rem_1fr]">
      <div className="h-96 animate-pulse rounded-card bg-slate-200/70" />
      <div className="flex flex-col gap-6">
        <div className="h-10 w-2/3 animate-pulse rounded-xl bg-slate-200/70" />
        <div className="h-12 animate-pulse rounded-xl bg-slate-200/70" />
        <div className="h-48 animate-pulse rounded-card bg-slate-200/70" />
        <div className="h-40 animate-pulse rounded-card bg-slate-200/70" />
      </div>
    </div>
  );
}

function ProfileView({ profile }: { profile: Profile }) {
  const year = joinedYear(profile.joinedAt);
  return (
    <div className="grid items-start gap-6 lg:grid-cols-[20rem_1fr]">
      <ProfileSidebar profile={profile} />
      <div className="flex min-w-0 flex-col gap-6">
        <header className="flex flex-col gap-2">
          <h1 className="text-3xl font-extrabold tracking-tight break-words sm:text-4xl">
            Welcome Back {profile.user.name}!
          </h1>
          {year ? (
            <p className="flex items-center gap-2 text-slate-600">
              <CalendarDays aria-hidden="true" className="size-4" />
              Joined in {year}
            </p>
          ) : null}
        </header>
        <ProfileMenu />
        <AboutCard profile={profile} />
        <MyCarts carts={profile.carts} />
        <ComingSoonProducts />
        <DevicesCard />
        <YourDataCard />
      </div>
    </div>
  );
}

function ProfileSidebar({ profile }: { profile: Profile }) {
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
  const count = useOrderCount().data;
  if (!count) {
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
      {count === 1 ? "1 order" : `${count} orders`}
    </Link>
  );
}

const menuItem = cn(
  buttonClasses({ variant: "secondary", size: "sm" }),
  "justify-start sm:justify-center",
);

function ProfileMenu() {
  const logout = useLogout();
  const comingSoon = (label: string) => () =>
    toast.info(`${label} is coming soon.`, { autoClose: 6000 });
  return (
    <nav aria-label="Profile menu">
      <ul className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap">
        <li>
          <Link to="/editme" className={cn(menuItem, "w-full")}>
            <PencilLine aria-hidden="true" className="size-4" />
            Edit Profile
          </Link>
        </li>
        <li>
          <Link to="/orders" className={cn(menuItem, "w-full")}>
            <Package aria-hidden="true" className="size-4" />
            My Orders
          </Link>
        </li>
        {(
          [
            ["My Sessions", <Users key="i" aria-hidden="true" className="size-4" />],
            ["FAQs", <CircleHelp key="i" aria-hidden="true" className="size-4" />],
            ["Contact Support", <Headset key="i" aria-hidden="true" className="size-4" />],
          ] as const
        ).map(([label, icon]) => (
          <li key={label}>
            <button type="button" className={cn(menuItem, "w-full")} onClick={comingSoon(label)}>
              {icon}
              {label}
            </button>
          </li>
        ))}
        <li>
          <button type="button" className={cn(menuItem, "w-full text-danger-700")} onClick={logout}>
            <LogOut aria-hidden="true" className="size-4" />
            Logout
          </button>
        </li>
      </ul>
    </nav>
  );
}

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

function AboutCard({ profile }: { profile: Profile }) {
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

function MyCarts({ carts }: { carts: Profile["carts"] }) {
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

function ComingSoonProducts() {
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
