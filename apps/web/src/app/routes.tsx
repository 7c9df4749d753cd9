import { lazy } from "react";
import type { RouteObject } from "react-router";
import { LandingPage } from "../features/landing/LandingPage.tsx";
import { RootLayout } from "./layout/RootLayout.tsx";
import { RequireAuth } from "./RequireAuth.tsx";
import { RouteErrorPage } from "./RouteErrorPage.tsx";

/*
 * The route table (SPEC section 2), in one place. The landing page ships in the main bundle; every
 * other page is its own lazily loaded chunk. Later issues replace a placeholder by pointing its
 * route at the real page, e.g. `const ProductsPage = lazy(() => import("../features/products/..."))`.
 */
const LoginPage = lazy(() =>
  import("../features/auth/LoginPage.tsx").then((m) => ({ default: m.LoginPage })),
);
const RegisterPage = lazy(() =>
  import("../features/auth/RegisterPage.tsx").then((m) => ({ default: m.RegisterPage })),
);
const VerifyOtpPage = lazy(() =>
  import("../features/auth/VerifyOtpPage.tsx").then((m) => ({ default: m.VerifyOtpPage })),
);
const NotFoundPage = lazy(() =>
  import("../features/not-found/NotFoundPage.tsx").then((m) => ({ default: m.NotFoundPage })),
);
const ComingSoonPage = lazy(() =>
  import("../features/placeholder/ComingSoonPage.tsx").then((m) => ({
    default: m.ComingSoonPage,
  })),
);

/** Anyone may open these. /verify-otp must stay outside the guard: there is no token yet. */
const publicRoutes: RouteObject[] = [
  { index: true, element: <LandingPage /> },
  { path: "login", element: <LoginPage /> },
  { path: "register", element: <RegisterPage /> },
  { path: "verify-otp", element: <VerifyOtpPage /> },
];

/** Signed-in users only (RequireAuth sends everyone else to /). */
const protectedRoutes: RouteObject[] = [
  {
    path: "products",
    element: (
      <ComingSoonPage title="Marketplace" description="Browse products and add them to a cart." />
    ),
  },
  {
    path: "product/:id",
    element: <ComingSoonPage title="Product Details" description="Everything about one product." />,
  },
  {
    path: "cart",
    element: <ComingSoonPage title="My Cart" description="All your shared carts in one place." />,
  },
  {
    path: "cart/:sessionId",
    element: <ComingSoonPage title="My Cart" description="All your shared carts in one place." />,
  },
  {
    path: "cart/id/:cartId",
    element: <ComingSoonPage title="My Cart" description="All your shared carts in one place." />,
  },
  {
    path: "cart-history",
    element: <ComingSoonPage title="Cart History" description="Your past carts and receipts." />,
  },
  {
    path: "sessions",
    element: (
      <ComingSoonPage
        title="Sessions"
        description="Create, join and manage your shopping sessions."
      />
    ),
  },
  {
    path: "session/:sessionId",
    element: (
      <ComingSoonPage title="Session Lobby" description="Who is here, and what is in the cart." />
    ),
  },
  {
    path: "session/edit/:id",
    element: <ComingSoonPage title="Edit Session" description="Rename, retype or re-budget." />,
  },
  {
    path: "session-summary/:sessionId",
    element: (
      <ComingSoonPage title="Session Summary" description="The cart and everyone's fair share." />
    ),
  },
  {
    path: "profile",
    element: <ComingSoonPage title="Profile" description="Your Cartner profile." />,
  },
  {
    path: "editme",
    element: <ComingSoonPage title="Edit Profile" description="Tell your group about yourself." />,
  },
  {
    path: "editpass",
    element: (
      <ComingSoonPage
        title="Change Email or Password"
        description="Update how you sign in to Cartner."
      />
    ),
  },
  {
    path: "user/:userId",
    element: <ComingSoonPage title="Member Profile" description="A fellow shopper's profile." />,
  },
];

export const routes: RouteObject[] = [
  {
    path: "/",
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      ...publicRoutes,
      { element: <RequireAuth />, children: protectedRoutes },
      { path: "*", element: <NotFoundPage /> },
    ],
  },
];
