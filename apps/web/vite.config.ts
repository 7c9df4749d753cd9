import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { VitePWA } from "vite-plugin-pwa";

/** The API server (apps/server) listens here in development. */
const API_TARGET = "http://localhost:3000";

const proxy = {
  // REST calls and the live WebSocket at /api/live.
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

/**
 * Preloads the two fonts every page draws its text with (the Latin files of Sora and DM Sans, which
 * styles/index.css declares with `font-display: swap`). Without the hint the browser asks for them
 * only when it first lays out text, which in this app is after all of its JavaScript has arrived
 * and run; then ~70 KB of fonts come in last, and the text is drawn a second time when they swap
 * in. With it they download alongside the JavaScript.
 */
function preloadFonts(): Plugin {
  const FONT = /^assets\/(sora|dm-sans)-latin-wght-normal-[\w-]+\.woff2$/;
  let base = "/";
  return {
    name: "cartner:preload-fonts",
    apply: "build",
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: "post",
      handler(_html, ctx) {
        const fonts = Object.keys(ctx.bundle ?? {}).filter((file) => FONT.test(file));
        if (fonts.length !== 2) {
          throw new Error(`cartner:preload-fonts: expected the 2 Latin font files, found ${fonts}`);
        }
        return fonts.sort().map((file) => ({
          tag: "link",
          attrs: {
            rel: "preload",
            href: `${base}${file}`,
            as: "font",
            type: "font/woff2",
            crossorigin: "",
          },
          injectTo: "head" as const,
        }));
      },
    },
  };
}

/** Where `vite build --ssr src/prerender.tsx` (run first by `npm run build`) writes its module. */
const SSR_OUT_DIR = "dist-ssr";

interface PrerenderModule {
  render(path: string): string;
  PRERENDERED_PAGES: readonly { path: string; file: string }[];
}

/**
 * Writes the pages visitors arrive on as HTML (docs/decisions/013-first-load.md): index.html holds
 * the landing page and login.html the sign-in page, rendered by src/prerender.tsx, so the browser
 * paints them before any JavaScript has run; main.tsx hydrates them. app.html is the empty shell
 * for every other path (the server's fallback and the service worker's). Runs before the service
 * worker's precache list is made, so all three are in it.
 */
function prerender(): Plugin {
  let root = ".";
  return {
    name: "cartner:prerender",
    apply: "build",
    enforce: "post",
    configResolved(config) {
      root = config.root;
    },
    async generateBundle(_options, bundle) {
      const index = bundle["index.html"];
      if (index?.type !== "asset" || typeof index.source !== "string") {
        throw new Error("cartner:prerender: index.html is missing from the build");
      }
      const entry = path.join(root, SSR_OUT_DIR, "prerender.js");
      if (!fs.existsSync(entry)) {
        throw new Error(
          `cartner:prerender: ${entry} is missing; run \`npm run build\` (it builds it first)`,
        );
      }
      const { render, PRERENDERED_PAGES } = (await import(
        `${pathToFileURL(entry).href}?t=${Date.now()}`
      )) as PrerenderModule;
      const shell = index.source;
      const EMPTY_ROOT = '<div id="root"></div>';
      if (!shell.includes(EMPTY_ROOT))
        throw new Error("cartner:prerender: no empty #root in index.html");
      this.emitFile({ type: "asset", fileName: "app.html", source: shell });
      for (const page of PRERENDERED_PAGES) {
        let body = render(page.path);
        let html = shell;
        // React renders a page's <title> first; it belongs in the head, in place of the default.
        const title = /^<title>[^<]*<\/title>/.exec(body)?.[0];
        if (title) {
          body = body.slice(title.length);
          html = html.replace(/<title>[^<]*<\/title>/, title);
        }
        html = html.replace(EMPTY_ROOT, `<div id="root">${body}</div>`);
        if (page.file === "index.html") index.source = html;
        else this.emitFile({ type: "asset", fileName: page.file, source: html });
      }
    },
  };
}

const BRAND = "#4f46e5";

/**
 * The installable app (docs/decisions/011-offline-first.md): a manifest and a Workbox
 * service worker at /sw.js that precaches the app shell, fonts and fingerprinted assets, so a
 * reload without signal still opens the app. API answers are never cached by the worker (they are
 * personal; the last data a user saw lives in their own IndexedDB cache, see lib/offline-cache.ts),
 * except the catalog's product images, which are the same for everyone. A new deployment waits
 * until the user accepts the update prompt (registerType "prompt", app/pwa.tsx).
 */
const pwa = VitePWA({
  registerType: "prompt",
  // app/pwa.tsx registers the worker after the page has loaded, off the critical path.
  injectRegister: false,
  filename: "sw.js",
  manifestFilename: "manifest.webmanifest",
  includeAssets: ["favicon.svg", "favicon.ico", "apple-touch-icon-180x180.png"],
  manifest: {
    id: "/",
    name: "Cartner — shop together",
    short_name: "Cartner",
    description:
      "Shop together: one shared cart per session that every member sees change live, and a fair split of the cost.",
    lang: "en",
    start_url: "/",
    scope: "/",
    display: "standalone",
    theme_color: BRAND,
    background_color: "#ffffff",
    icons: [
      { src: "pwa-64x64.png", sizes: "64x64", type: "image/png" },
      { src: "pwa-192x192.png", sizes: "192x192", type: "image/png" },
      { src: "pwa-512x512.png", sizes: "512x512", type: "image/png" },
      {
        src: "maskable-icon-512x512.png",
        sizes: "512x512",
        type: "image/png",
        purpose: "maskable",
      },
    ],
  },
  workbox: {
    globPatterns: ["**/*.{js,css,html,svg,png,ico,woff2,webmanifest}"],
    // Navigations get the app shell (/ and /login their prerendered pages, which the precache
    // serves by their clean URLs); the API and the development mailbox never do.
    navigateFallback: "/app.html",
    navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/dev(\/|$)/],
    cleanupOutdatedCaches: true,
    // Web Push: shows a push as a notification and opens its page on a click (public/push-sw.js).
    importScripts: ["/push-sw.js"],
    runtimeCaching: [
      {
        urlPattern: ({ url, sameOrigin }) =>
          sameOrigin && url.pathname.startsWith("/api/catalog/images/"),
        handler: "CacheFirst",
        options: {
          cacheName: "product-images",
          expiration: { maxEntries: 400, maxAgeSeconds: 30 * 24 * 3600 },
          cacheableResponse: { statuses: [200] },
        },
      },
    ],
  },
});

export default defineConfig(({ isSsrBuild }) => ({
  // The prerender module (src/prerender.tsx) needs React alone: no CSS, service worker or copies.
  plugins: isSsrBuild
    ? [react()]
    : [react(), tailwindcss(), preloadFonts(), prerender(), pwa, precompress()],
  server: { port: 5173, strictPort: true, proxy },
  preview: { port: 4173, proxy },
  build: isSsrBuild
    ? { outDir: SSR_OUT_DIR, emptyOutDir: true, copyPublicDir: false }
    : {
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
                // TanStack Query, shared by every page with server state (none of the first load's):
                // one long-lived file rather than the dozen small ones it would split into.
                {
                  name: "query",
                  test: /node_modules[\\/]@tanstack[\\/]/,
                  priority: 2,
                },
                // Everything else the first page needs (the app shell, the router, the landing and
                // sign-in pages, TanStack Query, the API client) in one file, the entry, rather than six small
                // chunks that lazy pages share: fewer requests before the first paint, each one a
                // round trip and on HTTP/1.1 one of the browser's six connections.
                {
                  name: "app",
                  tags: ["$initial"],
                  priority: 1,
                },
              ],
            },
          },
        },
      },
}));
