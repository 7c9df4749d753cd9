import { lazy, type ComponentType } from "react";
import { Route, Switch } from "../lib/router.tsx";
import { LoginPage } from "../features/auth/LoginPage.tsx";
import { LandingPage } from "../features/landing/LandingPage.tsx";
import { RequireAuth } from "./RequireAuth.tsx";

/*
 * The route table (SPEC section 2), in one place. The landing page and the sign-in page ship in the
 * main bundle: they are where visitors arrive, and a lazy chunk would hold their first paint back by
 * another round trip (the sign-in page is a few KB, and validates without zod). Every other page is
 * its own lazily loaded chunk.
 */
const RegisterPage = lazy(() =>
  import("../features/auth/RegisterPage.tsx").then((m) => ({ default: m.RegisterPage })),
);
const VerifyOtpPage = lazy(() =>
  import("../features/auth/VerifyOtpPage.tsx").then((m) => ({ default: m.VerifyOtpPage })),
);
const ForgotPasswordPage = lazy(() =>
  import("../features/auth/ForgotPasswordPage.tsx").then((m) => ({
    default: m.ForgotPasswordPage,
  })),
);
const ResetPasswordPage = lazy(() =>
  import("../features/auth/ResetPasswordPage.tsx").then((m) => ({ default: m.ResetPasswordPage })),
);
const JoinLinkPage = lazy(() =>
  import("../features/sessions/JoinLinkPage.tsx").then((m) => ({ default: m.JoinLinkPage })),
);
const NotFoundPage = lazy(() =>
  import("../components/NotFoundPage.tsx").then((m) => ({ default: m.NotFoundPage })),
);
const ProductsPage = lazy(() =>
  import("../features/products/ProductsPage.tsx").then((m) => ({ default: m.ProductsPage })),
);
const ProductDetailPage = lazy(() =>
  import("../features/products/ProductDetailPage.tsx").then((m) => ({
    default: m.ProductDetailPage,
  })),
);
const SessionsPage = lazy(() =>
  import("../features/sessions/SessionsPage.tsx").then((m) => ({ default: m.SessionsPage })),
);
const SessionLobbyPage = lazy(() =>
  import("../features/sessions/SessionLobbyPage.tsx").then((m) => ({
    default: m.SessionLobbyPage,
  })),
);
const EditSessionPage = lazy(() =>
  import("../features/sessions/EditSessionPage.tsx").then((m) => ({
    default: m.EditSessionPage,
  })),
);
const CartPage = lazy(() =>
  import("../features/cart/CartPage.tsx").then((m) => ({ default: m.CartPage })),
);
const CartHistoryPage = lazy(() =>
  import("../features/cart/CartHistoryPage.tsx").then((m) => ({ default: m.CartHistoryPage })),
);
const SessionSummaryPage = lazy(() =>
  import("../features/cart/SessionSummaryPage.tsx").then((m) => ({
    default: m.SessionSummaryPage,
  })),
);
const OrdersPage = lazy(() =>
  import("../features/cart/OrdersPage.tsx").then((m) => ({ default: m.OrdersPage })),
);
const OrderPage = lazy(() =>
  import("../features/cart/OrderPage.tsx").then((m) => ({ default: m.OrderPage })),
);
const BalancesPage = lazy(() =>
  import("../features/cart/BalancesPage.tsx").then((m) => ({ default: m.BalancesPage })),
);
const ProfilePage = lazy(() =>
  import("../features/profile/ProfilePage.tsx").then((m) => ({ default: m.ProfilePage })),
);
const EditProfilePage = lazy(() =>
  import("../features/profile/EditProfilePage.tsx").then((m) => ({ default: m.EditProfilePage })),
);
const EditCredentialsPage = lazy(() =>
  import("../features/profile/EditCredentialsPage.tsx").then((m) => ({
    default: m.EditCredentialsPage,
  })),
);
const PublicProfilePage = lazy(() =>
  import("../features/profile/PublicProfilePage.tsx").then((m) => ({
    default: m.PublicProfilePage,
  })),
);

/** A path of the app and the page that draws it. */
interface AppRoute {
  path: string;
  component: ComponentType;
}

/** Anyone may open these. /verify-otp must stay outside the guard: there is no token yet. */
const publicRoutes: AppRoute[] = [
  { path: "/", component: LandingPage },
  { path: "/login", component: LoginPage },
  { path: "/register", component: RegisterPage },
  { path: "/verify-otp", component: VerifyOtpPage },
  { path: "/forgot-password", component: ForgotPasswordPage },
  { path: "/reset-password", component: ResetPasswordPage },
  // An invite link: anyone may see where it leads; joining signs the visitor in or up first.
  { path: "/join/:token", component: JoinLinkPage },
];

/** Signed-in users only (RequireAuth sends everyone else to /). */
const protectedRoutes: AppRoute[] = [
  { path: "/products", component: ProductsPage },
  { path: "/product/:id", component: ProductDetailPage },
  { path: "/cart", component: CartPage },
  { path: "/cart/id/:cartId", component: CartPage },
  { path: "/cart/:sessionId", component: CartPage },
  { path: "/cart-history", component: CartHistoryPage },
  { path: "/sessions", component: SessionsPage },
  { path: "/session/:sessionId", component: SessionLobbyPage },
  { path: "/session/edit/:id", component: EditSessionPage },
  { path: "/session-summary/:sessionId", component: SessionSummaryPage },
  { path: "/orders", component: OrdersPage },
  { path: "/orders/:id", component: OrderPage },
  { path: "/balances", component: BalancesPage },
  { path: "/profile", component: ProfilePage },
  { path: "/editme", component: EditProfilePage },
  { path: "/editpass", component: EditCredentialsPage },
  { path: "/user/:userId", component: PublicProfilePage },
];

/** Every path the app draws a page for; anything else is the 404 page. */
export const knownPaths: readonly string[] = [...publicRoutes, ...protectedRoutes].map(
  (route) => route.path,
);

/** The page for the current path. */
export function AppRoutes() {
  return (
    <Switch>
      {publicRoutes.map(({ path, component }) => (
        <Route key={path} path={path} component={component} />
      ))}
      {protectedRoutes.map(({ path, component: Page }) => (
        <Route key={path} path={path}>
          <RequireAuth>
            <Page />
          </RequireAuth>
        </Route>
      ))}
      <Route component={NotFoundPage} />
    </Switch>
  );
}
