import { defineConfig } from "vite";
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

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: { port: 5173, strictPort: true, proxy },
  preview: { port: 4173, proxy },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Fail loudly in review: no chunk may exceed 500 kB (the default warning limit, kept explicit).
    chunkSizeWarningLimit: 500,
    sourcemap: false,
    rolldownOptions: {
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
            { name: "vendor", test: /node_modules[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
