import "@fontsource-variable/sora";
import "@fontsource-variable/dm-sans";
// The unstyled react-toastify entry does not inject a <style> tag (CSP); its CSS is bundled instead.
import "react-toastify/ReactToastify.css";
import "./styles/index.css";

import { StrictMode, startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { App } from "./app/App.tsx";
import { earlyDataPaths, showsDatesFirst } from "./app/early-data.ts";
import { startEarlyGets } from "./lib/api.ts";
import { prepareFormatters } from "./lib/format.ts";
import { getToken } from "./lib/storage.ts";

const container = document.getElementById("root");
if (!container) throw new Error("Cartner: #root element missing from index.html");

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

// / and /login arrive as HTML rendered at build time for a signed-out visitor (src/prerender.tsx):
// it is painted before this code runs, and React adopts it (hydration). A signed-in user sees
// other things on those pages (their name, their sessions), so theirs is drawn afresh instead.
// A signed-in user's layout needs the query client and its signed-in parts (session selector, live
// connection): asked for now, they arrive with the page's own chunk instead of after it, and the
// layout is complete before the page's heavier first render starts.
if (getToken() !== null) {
  void import("./app/signed-in.tsx");
  // The page's own data, asked for now rather than once its chunk has loaded and rendered.
  startEarlyGets(earlyDataPaths(location.pathname, location.search));
  // The locale's data, loaded while those requests are out and before the first paint: only where
  // nothing is painted yet (/ and /login arrive as HTML already on screen, and need no formatter
  // to start).
  if (!container.firstElementChild) prepareFormatters(showsDatesFirst(location.pathname));
}

if (container.firstElementChild && getToken() === null) {
  hydrateRoot(container, app);
} else {
  container.replaceChildren();
  // The first render as a transition: React renders it in small slices instead of one long
  // task, so a phone's main thread stays responsive while the page starts (Total Blocking Time).
  const root = createRoot(container);
  startTransition(() => root.render(app));
}

// The service worker (installable app, offline shell) is registered once the page has loaded and
// the browser is idle: its code and the precache download (about 1 MB, once) then never compete
// with what the first page still fetches on a slow phone.
if (import.meta.env.PROD && "serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    const register = () =>
      void import("./app/pwa.tsx").then(({ registerServiceWorker }) => registerServiceWorker());
    setTimeout(() => {
      if ("requestIdleCallback" in window) requestIdleCallback(register, { timeout: 5000 });
      else register();
    }, 2000);
  });
}
