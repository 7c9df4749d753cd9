import { configDefaults, defineConfig } from "vitest/config";
import { answers } from "./scripts/lib/port.ts";

// The API tests also run on PostgreSQL when one answers (CI starts the local one).

export default defineConfig(async () => {
  const postgresUrl =
    process.env.TEST_DATABASE_URL ??
    ((await answers(5432)) ? "postgres://postgres@127.0.0.1:5432/postgres" : undefined);
  if (!postgresUrl && process.env.CI) {
    throw new Error(
      "CI must run the API tests on PostgreSQL too, but none answers on 127.0.0.1:5432",
    );
  }
  const server = (
    name: string,
    env: Record<string, string>,
    include: string[],
    exclude: string[] = [],
  ) => ({
    test: {
      name,
      root: "apps/server",
      include,
      exclude: [...configDefaults.exclude, ...exclude],
      globalSetup: ["test/global-setup.ts"],
      // Each file builds its own app and database, and none mocks a module, so a worker's files
      // share one module graph: importing the server once per worker, not once per file, was a
      // fifth of the server tests' time.
      isolate: false,
      env,
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  });
  return {
    test: {
      projects: [
        { test: { name: "contract", root: "packages/contract", include: ["src/**/*.test.ts"] } },
        { test: { name: "scripts", root: "scripts", include: ["**/*.test.ts"] } },
        "apps/web/vitest.config.ts",
        server(
          "server:pglite",
          { TEST_DB: "pglite" },
          ["test/**/*.test.ts"],
          // Several instances share one database, and a pool of connections, only on PostgreSQL.
          [
            "test/process/two-instances.test.ts",
            "test/api/postgres-crowd.test.ts",
            "test/api/order-locks.test.ts",
            "test/api/deadlines-two-instances.test.ts",
            "test/api/drain-two-instances.test.ts",
            "test/api/catalog-two-instances.test.ts",
            "test/api/stock-two-instances.test.ts",
            "test/api/look-two-instances.test.ts",
            "test/api/orders-kept-two-instances.test.ts",
            "test/db/order-marks-concurrent.test.ts",
            // The embedded database's live bus is in-process: it has no connection to lose.
            "test/api/health-bus.test.ts",
            // An import into the embedded database waits for the server to stop.
            "test/api/catalog-refresh-postgres.test.ts",
          ],
        ),
        ...(postgresUrl
          ? [
              server(
                "server:postgres",
                { TEST_DB: "postgres", TEST_DATABASE_URL: postgresUrl },
                [
                  "test/api/**/*.test.ts",
                  // The SQL functions are the files on both databases.
                  "test/db/**/*.test.ts",
                  // The crash test runs the real server on both databases.
                  "test/process/cart-crash.test.ts",
                  "test/process/deadline-restart.test.ts",
                  "test/process/two-instances.test.ts",
                  // Backups, upgrades and catalog imports on each database.
                  "test/process/backup.test.ts",
                  "test/process/catalog-import.test.ts",
                  "test/process/upgrade.test.ts",
                ],
                // The fuzz walk runs once, on the embedded default.
                ["test/api/fuzz.test.ts"],
              ),
            ]
          : []),
      ],
    },
  };
});
