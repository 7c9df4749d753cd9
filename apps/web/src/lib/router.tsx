/**
 * The app's router, in one module: every page and component imports its links, redirects and
 * location hooks from here, never from the library. It is wouter (about 3 KB gzip) over the
 * browser's History API; React Router's data router cost 30 KB of the first load for features this
 * app does not use (loaders, actions, fetchers). docs/decisions/013-first-load.md has the numbers.
 *
 * Navigations are synchronous pushState/replaceState calls that React renders at once, so nothing
 * needs flushSync, and a lazy page shows the layout's spinner while its chunk arrives.
 */
import { type AnchorHTMLAttributes, type ReactNode, useEffect } from "react";
import {
  Link as WouterLink,
  Redirect,
  matchRoute,
  useLocation as useWouterLocation,
  useParams as useWouterParams,
  useRouter,
  useSearch,
  useSearchParams as useWouterSearchParams,
} from "wouter";
import { useHistoryState } from "wouter/use-browser-location";

export { Router, Route, Switch } from "wouter";

export interface NavigateOptions {
  /** Replace the current history entry instead of pushing one (Back skips it). */
  replace?: boolean;
  /** Kept with the history entry: read back with useLocation().state. */
  state?: unknown;
}

export type NavigateFunction = (to: string, options?: NavigateOptions) => void;

/** Goes to another path of the app. */
export function useNavigate(): NavigateFunction {
  return useWouterLocation()[1] as NavigateFunction;
}

export interface AppLocation {
  pathname: string;
  /** "" or "?a=1&b=2". */
  search: string;
  /** What the navigation that made this history entry passed as `state` (null otherwise). */
  state: unknown;
}

export function useLocation(): AppLocation {
  const [pathname] = useWouterLocation();
  const search = useSearch();
  const state: unknown = useHistoryState();
  return { pathname, search: search ? `?${search}` : "", state };
}

/** The path's named segments (`:id` in "/orders/:id"), decoded. */
export function useParams<T extends Record<string, string | undefined>>(): Partial<T> {
  return useWouterParams() as Partial<T>;
}

export function useSearchParams(): [
  URLSearchParams,
  (next: URLSearchParams, options?: NavigateOptions) => void,
] {
  const [params, setParams] = useWouterSearchParams();
  return [params, (next, options) => setParams(next, options)];
}

type AnchorProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href">;

export interface LinkProps extends AnchorProps {
  to: string;
  replace?: boolean;
  state?: unknown;
  /** A full page load instead of a client-side navigation (after an unexpected error). */
  reloadDocument?: boolean;
  children?: ReactNode;
}

/** An <a href> that navigates without a page load (modifier-clicks still open a new tab). */
export function Link({ to, reloadDocument, ...props }: LinkProps) {
  if (reloadDocument) return <a href={to} {...props} />;
  return <WouterLink to={to} {...props} />;
}

export interface NavLinkProps extends LinkProps {
  /** Active only on this exact path, not on the paths below it. */
  end?: boolean;
}

/** Whether a navigation link points at the current page (or, unless `end`, a page below it). */
export function isActivePath(pathname: string, to: string, end = false): boolean {
  const current = trimSlash(pathname).toLowerCase();
  const target = trimSlash(to).toLowerCase();
  if (current === target) return true;
  return !end && target !== "/" && current.startsWith(`${target}/`);
}

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}

/** A Link that marks itself aria-current="page" when it leads to the current page. */
export function NavLink({ end, ...props }: NavLinkProps) {
  const { pathname } = useLocation();
  const active = isActivePath(pathname, props.to, end);
  return <Link {...props} aria-current={active ? "page" : undefined} />;
}

/** Redirects as soon as it renders (e.g. a guard sending a visitor elsewhere). */
export function Navigate({ to, replace }: { to: string; replace?: boolean }) {
  return <Redirect to={to} replace={replace} />;
}

/** Whether `pathname` matches one of the route patterns (e.g. "/orders/:id"). */
export function useMatchesAny(patterns: readonly string[], pathname: string): boolean {
  const { parser } = useRouter();
  return patterns.some((pattern) => matchRoute(parser, pattern, pathname)[0]);
}

/**
 * Scrolls to the top when the path changes, as a page load would. Back and Forward (popstate) keep
 * the browser's own restoration, and a change of the query alone (the marketplace's filters) keeps
 * the reader where they were.
 */
export function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    if (poppedTo === pathname) {
      poppedTo = null;
      return;
    }
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

/**
 * Whether the page being drawn was reached with Back or Forward, so the browser is putting the
 * reader back where they were (true until ScrollToTop has seen the new path): a page that draws
 * long content bit by bit draws it whole then, or the restored position would not exist yet.
 */
export function isHistoryTraversal(): boolean {
  return typeof window !== "undefined" && poppedTo === window.location.pathname;
}

/** The path Back or Forward last led to, until ScrollToTop has seen it. */
let poppedTo: string | null = null;
if (typeof window !== "undefined") {
  window.addEventListener("popstate", () => {
    poppedTo = window.location.pathname;
  });
}
