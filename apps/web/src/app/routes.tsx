import { lazy, type ComponentType } from "react";
import { Route, Switch } from "../lib/router.tsx";
import { LoginPage } from "../features/auth/LoginPage.tsx";
import { LandingPage } from "../features/landing/LandingPage.tsx";
import { RequireAuth } from "./RequireAuth.tsx";

/*
 * The route table, in one place. The landing page and the sign-in page ship in the
 * main bundle: they are where visitors arrive, prerendered at build time (src/prerender.tsx), and
 * need no server state. Every other page is its own lazily loaded chunk, given the shared query
 * client, which loads with the first of them (docs/decisions/013-first-load.md).
 */

/** A page in its own chunk, wrapped in the query client's provider. */
function lazyPage(load: () => Promise<ComponentType>) {
  return lazy(async () => {
    const [Page, { QueryProvider }] = await Promise.all([
      load(),
      // Offline, the user's saved data is in the cache before the page first asks for it.
      import("./query-client.tsx").then(async (data) => {
        await data.savedDataRestored();
        return data;
      }),
    ]);
    function PageWithQueries() {
      return (
        <QueryProvider>
          <Page />
        </QueryProvider>
      );
    }
    return { default: PageWithQueries };
  });
}
const RegisterPage = lazyPage(() =>
  import("../features/auth/RegisterPage.tsx").then((m) => m.RegisterPage),
);
const VerifyOtpPage = lazyPage(() =>
  import("../features/auth/VerifyOtpPage.tsx").then((m) => m.VerifyOtpPage),
);
const ForgotPasswordPage = lazyPage(() =>
  import("../features/auth/ForgotPasswordPage.tsx").then((m) => m.ForgotPasswordPage),
);
const ResetPasswordPage = lazyPage(() =>
  import("../features/auth/ResetPasswordPage.tsx").then((m) => m.ResetPasswordPage),
);
const JoinLinkPage = lazyPage(() =>
  import("../features/sessions/JoinLinkPage.tsx").then((m) => m.JoinLinkPage),
);
const LookPage = lazyPage(() => import("../features/look/LookPage.tsx").then((m) => m.LookPage));
const NotFoundPage = lazy(() =>
  import("../components/NotFoundPage.tsx").then((m) => ({ default: m.NotFoundPage })),
);
const ProductsPage = lazyPage(() =>
  import("../features/products/ProductsPage.tsx").then((m) => m.ProductsPage),
);
const ProductDetailPage = lazyPage(() =>
  import("../features/products/ProductDetailPage.tsx").then((m) => m.ProductDetailPage),
);
const SessionsPage = lazyPage(() =>
  import("../features/sessions/SessionsPage.tsx").then((m) => m.SessionsPage),
);
const SessionLobbyPage = lazyPage(() =>
  import("../features/sessions/SessionLobbyPage.tsx").then((m) => m.SessionLobbyPage),
);
const EditSessionPage = lazyPage(() =>
  import("../features/sessions/EditSessionPage.tsx").then((m) => m.EditSessionPage),
);
const CartPage = lazyPage(() => import("../features/carts/CartPage.tsx").then((m) => m.CartPage));
const CartHistoryPage = lazyPage(() =>
  import("../features/carts/CartHistoryPage.tsx").then((m) => m.CartHistoryPage),
);
const SessionSummaryPage = lazyPage(() =>
  import("../features/carts/SessionSummaryPage.tsx").then((m) => m.SessionSummaryPage),
);
const OrdersPage = lazyPage(() =>
  import("../features/orders/OrdersPage.tsx").then((m) => m.OrdersPage),
);
const OrderPage = lazyPage(() =>
  import("../features/orders/OrderPage.tsx").then((m) => m.OrderPage),
);
const BalancesPage = lazyPage(() =>
  import("../features/orders/BalancesPage.tsx").then((m) => m.BalancesPage),
);
const NotificationsPage = lazyPage(() =>
  import("../features/notifications/NotificationsPage.tsx").then((m) => m.NotificationsPage),
);
const ProfilePage = lazyPage(() =>
  import("../features/profile/ProfilePage.tsx").then((m) => m.ProfilePage),
);
const EditProfilePage = lazyPage(() =>
  import("../features/profile/EditProfilePage.tsx").then((m) => m.EditProfilePage),
);
const EditCredentialsPage = lazyPage(() =>
  import("../features/profile/EditCredentialsPage.tsx").then((m) => m.EditCredentialsPage),
);
const CatalogPage = lazyPage(() =>
  import("../features/catalog/index.ts").then((m) => m.CatalogPage),
);
const PublicProfilePage = lazyPage(() =>
  import("../features/profile/PublicProfilePage.tsx").then((m) => m.PublicProfilePage),
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
  // A look-only link: the cart's list for someone without an account (the one doing the shop).
  { path: "/look/:token", component: LookPage },
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
  { path: "/notifications", component: NotificationsPage },
  { path: "/profile", component: ProfilePage },
  { path: "/editme", component: EditProfilePage },
  { path: "/editpass", component: EditCredentialsPage },
  { path: "/user/:userId", component: PublicProfilePage },
  // Operators only: the server answers anyone else 403, which the page words.
  { path: "/catalog", component: CatalogPage },
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
