import { useEffect } from "react";
import { Link, useNavigate } from "../../lib/router.tsx";
import { toast } from "../../lib/toast.ts";
import {
  CalendarDays,
  CircleHelp,
  Headset,
  LogOut,
  Package,
  PencilLine,
  Users,
  UserRoundPlus,
} from "lucide-react";
import { PROFILE_EMPTY_REDIRECT_MS, type Profile } from "@cartner/contract";
import { ButtonLink, Card, Container, Spinner, buttonClasses } from "../../components/ui/index.ts";
import { cn } from "../../lib/cn.ts";
import { useLogout } from "../../shared/use-logout.ts";
import { DevicesCard, YourDataCard } from "./AccountCards.tsx";
import { NotificationSettingsCard } from "./NotificationSettingsCard.tsx";
import { PaymentDetailsCard } from "./PaymentDetailsCard.tsx";
import { AboutCard, ComingSoonProducts, MyCarts } from "./ProfileCards.tsx";
import { ProfileSidebar } from "./ProfileSidebar.tsx";
import { PushDeviceCard } from "./PushDevice.tsx";
import { isProfileEmpty, joinedYear } from "./profile-model.ts";
import { useMyProfile } from "../../api/profile.ts";

export const LOAD_PROFILE_FAILED_MESSAGE = "Failed to load profile";
const LOAD_FAILED_TOAST_ID = "profile-load-failed";

/** /profile: the signed-in user's own profile, or the way to set one up. */
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
        <PaymentDetailsCard />
        <NotificationSettingsCard />
        <DevicesCard />
        <PushDeviceCard />
        <YourDataCard />
      </div>
    </div>
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
