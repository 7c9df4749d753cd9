import fs from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import { ErrorCode } from "@cartner/contract";
import type { FastifyInstance } from "fastify";

/**
 * The built web app (when there is one): fingerprinted assets cached for good, precompressed
 * variants, and every other non-API GET answered with index.html for the client router. Unknown
 * API paths get a JSON 404.
 */
export async function serveWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const indexHtml = path.join(webDist, "index.html");
  const serveWeb = fs.existsSync(indexHtml);
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
    const isApi =
      pathname === "/api" || pathname.startsWith("/api/") || pathname.startsWith("/dev/");
    // A missing file (a stale tab asking for an old chunk) is a 404, not the app.
    const isFile = pathname.startsWith("/assets/") || /\.[a-z0-9]+$/i.test(pathname);
    if (!isApi && !isFile && serveWeb && (request.method === "GET" || request.method === "HEAD")) {
      // SPA fallback: the client router draws every other path, including its own 404 page.
      return reply.header("cache-control", "no-cache").sendFile("index.html");
    }
    return reply.code(404).send({
      message: `No route for ${request.method} ${pathname}`,
      code: ErrorCode.NOT_FOUND,
    });
  });
}
