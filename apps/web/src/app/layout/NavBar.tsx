import { Suspense, lazy, useId, useRef, useState, type KeyboardEvent } from "react";
import { Link, NavLink, useLocation } from "../../lib/router.tsx";
import { LogOut, Menu, X } from "lucide-react";
import { LogoMark } from "../../components/illustrations/LogoMark.tsx";
import { Avatar, Container, buttonClasses } from "../../components/ui/index.ts";
import { firstName, useAuth } from "../../lib/auth-store.ts";
import { cn } from "../../lib/cn.ts";
import { useLogout } from "../../shared/use-logout.ts";
import { OfflineIndicator } from "../../features/live/OfflineIndicator.tsx";

interface NavItem {
  to: string;
  label: string;
  end?: boolean;
  /** My Orders: the count of the user's shares still to pay. */
  count?: true;
}

/*
 * The count needs the orders query: it lives in the signed-in chunk (with TanStack Query), which a
 * signed-in user loads anyway, so the first load of / and /login stays without it (decision 013).
 */
const UnpaidSharesCount = lazy(() =>
  import("../signed-in.tsx").then((m) => ({ default: m.UnpaidSharesCount })),
);

const NotificationsBell = lazy(() =>
  import("../signed-in.tsx").then((m) => ({ default: m.NotificationsBell })),
);

const signedOutItems: NavItem[] = [
  { to: "/products", label: "Explore" },
  { to: "/login", label: "Login" },
];

const signedInItems: NavItem[] = [
  { to: "/", label: "Home", end: true },
  { to: "/products", label: "Explore Marketplace" },
  { to: "/sessions", label: "Sessions" },
  { to: "/cart", label: "My Cart" },
  { to: "/orders", label: "My Orders", count: true },
  { to: "/balances", label: "Balances" },
];

/** The Catalog page, for operators only. */
const operatorItem: NavItem = { to: "/catalog", label: "Catalog" };

// Labels stay on one line; between lg and xl the links sit closer so the row fits at 1024 px.
const linkClasses =
  "flex items-center gap-2 rounded-xl px-3 py-2.5 text-[0.9375rem] font-medium whitespace-nowrap " +
  "text-slate-700 transition-colors hover:bg-slate-100 hover:text-ink lg:px-2 lg:py-2 xl:px-3 " +
  "aria-[current=page]:bg-primary-50 aria-[current=page]:text-primary-700";

export function NavBar() {
  const { isSignedIn, user } = useAuth();
  const { pathname } = useLocation();
  const logout = useLogout();
  const menuId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  // The menu is open for the path it was opened on, so any route change closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === "Escape" && open) {
      setOpenOn(null);
      toggleRef.current?.focus();
    }
  }

  const items = !isSignedIn
    ? signedOutItems
    : user?.roles.includes("operator")
      ? [...signedInItems, operatorItem]
      : signedInItems;

  return (
    <header
      className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur-md"
      onKeyDown={onKeyDown}
    >
      <Container className="flex flex-wrap items-center justify-between gap-x-4 py-2.5 lg:h-16 lg:flex-nowrap lg:py-0">
        <Link
          to="/"
          aria-label="Cartner home"
          className="flex items-center gap-2.5 rounded-xl py-1 font-display text-xl font-bold tracking-tight text-ink"
        >
          <LogoMark />
          <span>Cartner</span>
        </Link>

        <div className="flex items-center gap-1 lg:order-last lg:ml-1">
          {isSignedIn && (
            <Suspense fallback={null}>
              <NotificationsBell />
            </Suspense>
          )}
          <button
            ref={toggleRef}
            type="button"
            className={buttonClasses({ variant: "ghost", size: "icon", className: "lg:hidden" })}
            aria-expanded={open}
            aria-controls={menuId}
            aria-label="Menu"
            onClick={() => setOpenOn(open ? null : pathname)}
          >
            {open ? (
              <X aria-hidden="true" className="size-6" />
            ) : (
              <Menu aria-hidden="true" className="size-6" />
            )}
          </button>
        </div>

        <nav
          id={menuId}
          aria-label="Main"
          className={cn(open ? "block" : "hidden", "w-full lg:block lg:w-auto")}
        >
          <ul className="flex flex-col gap-1 border-t border-slate-200 pt-3 pb-4 lg:flex-row lg:items-center lg:border-0 lg:p-0">
            {items.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.end ?? false} className={linkClasses}>
                  {item.label}
                  {item.count && (
                    <Suspense fallback={null}>
                      <UnpaidSharesCount />
                    </Suspense>
                  )}
                </NavLink>
              </li>
            ))}

            {isSignedIn ? (
              <>
                <li className="lg:ml-2">
                  <NavLink to="/profile" className={linkClasses}>
                    <Avatar
                      seed={user?._id ?? "cartner"}
                      name={user?.name ?? ""}
                      className="size-8"
                    />
                    {/* Between lg and xl the avatar alone shows (the name is still read out). */}
                    <span className="lg:max-xl:sr-only">Welcome, {firstName(user?.name)}</span>
                  </NavLink>
                </li>
                <li>
                  <button
                    type="button"
                    onClick={logout}
                    className={cn(linkClasses, "w-full text-left")}
                  >
                    <LogOut aria-hidden="true" className="size-4" />
                    Logout
                  </button>
                </li>
              </>
            ) : (
              <li className="pt-2 lg:pt-0 lg:pl-2">
                <Link
                  to="/register"
                  className={buttonClasses({ variant: "primary", size: "md", fullWidth: true })}
                >
                  Become a cartner today
                </Link>
              </li>
            )}
          </ul>
        </nav>
      </Container>
      <OfflineIndicator />
    </header>
  );
}
