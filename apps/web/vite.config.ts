import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";

/** The API server (apps/server) listens here in development. */
const API_TARGET = "http://localhost:3000";

const proxy = {
  // REST calls and the realtime WebSocket at /api/live.
  "/api": { target: API_TARGET, ws: true },
  // The development outbox (/dev/mailbox) where one-time codes appear without SMTP.
  "^/dev(/|$)": { target: API_TARGET },
};

/**
 * Writes a gzip and a brotli copy next to every text file of the build (index.html, JS, CSS, SVG),
 * so the server can send them compressed at no cost per request (@fastify/static `preCompressed`).
 * Uncompressed, the first load of / is about three times as many bytes on a phone's connection.
 */
function precompress(): Plugin {
  let outDir = "dist";
  return {
    name: "cartner:precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle() {
      const walk = (dir: string): string[] =>
        fs
          .readdirSync(dir, { withFileTypes: true })
          .flatMap((entry) =>
            entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
          );
      for (const file of walk(outDir).filter((f) => /\.(html|js|css|svg)$/.test(f))) {
        const body = fs.readFileSync(file);
        if (body.length < 1024) continue;
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
        fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(body));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  server: { port: 5173, strictPort: true, proxy },
  preview: { port: 4173, proxy },
  build: {
    manifest: true,
    outDir: "dist",
    emptyOutDir: true,
    // Fail loudly in review: no chunk may exceed 500 kB (the default warning limit, kept explicit).
    chunkSizeWarningLimit: 500,
    sourcemap: false,
    rolldownOptions: {
      treeshake: {
        // The contract's modules only declare constants, schemas and pure functions, and zod's
        // builders have no side effects: an unused schema may be dropped, so that importing a
        // constant from "@cartner/contract" does not put zod into the first load.
        moduleSideEffects: [{ test: /[\\/]packages[\\/]contract[\\/]/, sideEffects: false }],
        manualPureFunctions: ["z"],
      },
      output: {
        // Long-lived vendor chunks, so an app change does not re-download React and friends.
        codeSplitting: {
          groups: [
            {
              name: "react",
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
              priority: 3,
            },
            {
              name: "router",
              test: /node_modules[\\/](react-router|cookie|set-cookie-parser)[\\/]/,
              priority: 2,
            },
          ],
        },
      },
    },
  },
});
