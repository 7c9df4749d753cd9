/**
 * Build-time rendering of the pages visitors arrive on (docs/decisions/013-first-load.md): the
 * build renders them to HTML (vite.config.ts, plugin `cartner:prerender`), so the browser paints
 * them before any JavaScript has run; main.tsx then hydrates that HTML. Rendered signed out, as a
 * visitor sees them.
 */
import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { App } from "./app/App.tsx";

/** The paths rendered at build time, and the file each is written to. */
export const PRERENDERED_PAGES = [
  { path: "/", file: "index.html" },
  { path: "/login", file: "login.html" },
] as const;

export function render(path: string): string {
  return renderToString(
    <StrictMode>
      <App ssrPath={path} />
    </StrictMode>,
  );
}
