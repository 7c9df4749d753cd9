import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

export default defineConfig({
  plugins: [react()],
  root: decodeURIComponent(new URL(".", import.meta.url).pathname),
  // Resolve packages as the browser build does (their ESM builds, with development checks), so a
  // package and its subpath exports share one copy and one React context.
  resolve: { conditions: ["module", "browser", "development"] },
  test: {
    name: "web",
    environment: "jsdom",
    setupFiles: ["./src/test/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
    css: false,
    restoreMocks: true,
    unstubGlobals: true,
    // A page test renders the whole app in jsdom; on a busy 2-core machine some take over 5 s.
    testTimeout: 15_000,
  },
});
