import fs from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import { ErrorCode } from "@cartner/contract";
import type { FastifyInstance } from "fastify";
import { sendError } from "./error-handler.ts";

/**
 * The pages the build prerendered (apps/web/src/prerender.tsx): / is index.html and /login is
 * login.html, the HTML of those pages, painted before the app's JavaScript runs. Every other path
 * gets app.html, the empty shell the client router draws into.
 */
const PRERENDERED: Record<string, string> = { "/": "index.html", "/login": "login.html" };
const SHELL = "app.html";

/** The HTML file for a page path (trailing slashes and letter case ignored, as the router does). */
export function htmlFileFor(pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "").toLowerCase() : pathname;
  return PRERENDERED[path] ?? SHELL;
}

/** Paths of the API (and the dev mailbox), answered in JSON; the rest belongs to the web app. */
export const isApiPath = (pathname: string) =>
  pathname === "/api" || pathname.startsWith("/api/") || pathname.startsWith("/dev/");

/**
 * The built web app (when there is one): fingerprinted assets cached for good, precompressed
 * variants, and every other non-API GET answered with an HTML page for the client router (see
 * htmlFileFor). Unknown API paths get a JSON 404.
 */
export async function serveWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const serveWeb = fs.existsSync(path.join(webDist, SHELL));
  if (serveWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // The build writes .br and .gz next to each asset; send the one the browser accepts.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        // Vite fingerprints assets, so they never change; index.html must always be fresh.
        res.header(
          "cache-control",
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? "public, max-age=31536000, immutable"
            : "no-cache",
        );
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split("?")[0] ?? "/";
    const isApi = isApiPath(pathname);
    // A missing file (a stale tab asking for an old chunk) is a 404, not the app.
    const isFile = pathname.startsWith("/assets/") || /\.[a-z0-9]+$/i.test(pathname);
    if (!isApi && !isFile && serveWeb && (request.method === "GET" || request.method === "HEAD")) {
      // SPA fallback: the client router draws every other path, including its own 404 page.
      return reply.header("cache-control", "no-cache").sendFile(htmlFileFor(pathname));
    }
    return sendError(reply, 404, {
      message: `No route for ${request.method} ${pathname}`,
      code: ErrorCode.NOT_FOUND,
    });
  });
}
