import { lazy } from "react";
import type { RouteObject } from "react-router";
import { LoginPage } from "../features/auth/LoginPage.tsx";
import { LandingPage } from "../features/landing/LandingPage.tsx";
import { RootLayout } from "./layout/RootLayout.tsx";
import { RequireAuth } from "./RequireAuth.tsx";
import { RouteErrorPage } from "./RouteErrorPage.tsx";

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

/** Anyone may open these. /verify-otp must stay outside the guard: there is no token yet. */
const publicRoutes: RouteObject[] = [
  { index: true, element: <LandingPage /> },
  { path: "login", element: <LoginPage /> },
  { path: "register", element: <RegisterPage /> },
  { path: "verify-otp", element: <VerifyOtpPage /> },
  { path: "forgot-password", element: <ForgotPasswordPage /> },
  { path: "reset-password", element: <ResetPasswordPage /> },
  // An invite link: anyone may see where it leads; joining signs the visitor in or up first.
  { path: "join/:token", element: <JoinLinkPage /> },
];

/** Signed-in users only (RequireAuth sends everyone else to /). */
const protectedRoutes: RouteObject[] = [
  { path: "products", element: <ProductsPage /> },
  { path: "product/:id", element: <ProductDetailPage /> },
  { path: "cart", element: <CartPage /> },
  { path: "cart/:sessionId", element: <CartPage /> },
  { path: "cart/id/:cartId", element: <CartPage /> },
  { path: "cart-history", element: <CartHistoryPage /> },
  { path: "sessions", element: <SessionsPage /> },
  { path: "session/:sessionId", element: <SessionLobbyPage /> },
  { path: "session/edit/:id", element: <EditSessionPage /> },
  { path: "session-summary/:sessionId", element: <SessionSummaryPage /> },
  { path: "orders", element: <OrdersPage /> },
  { path: "orders/:id", element: <OrderPage /> },
  { path: "balances", element: <BalancesPage /> },
  { path: "profile", element: <ProfilePage /> },
  { path: "editme", element: <EditProfilePage /> },
  { path: "editpass", element: <EditCredentialsPage /> },
  { path: "user/:userId", element: <PublicProfilePage /> },
];

export const routes: RouteObject[] = [
  {
    path: "/",
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      ...publicRoutes,
      { element: <RequireAuth />, children: protectedRoutes },
      { path: "*", element: <NotFoundPage />, handle: { hideSessionSelector: true } },
    ],
  },
];
