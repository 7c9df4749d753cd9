import fs from "node:fs";
import js from "@eslint/js";
import importX from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/",
      "**/dist/",
      "**/dist-ssr/",
      "**/data/",
      "playwright-report/",
      "test-results/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": ["error", { allow: ["warn", "error", "info"] }],
    },
  },
  {
    files: ["apps/web/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Scripts the service worker imports (vite.config.ts workbox.importScripts).
    files: ["apps/web/public/**/*.js"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  webBoundaries(),
  serverBoundaries(),
  serverCycles(),
  {
    // Only the config module reads the environment: one place validates every setting.
    files: ["apps/server/src/**/*.ts"],
    ignores: ["apps/server/src/config.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read configuration from src/config.ts." },
      ],
    },
  },
);

/**
 * The web app's feature boundaries: a feature may import
 * lib/, components/, api/, shared/, the contract, its own files, and another feature only through
 * that feature's index.ts; the shared folders never import a feature; and nothing imports in a
 * cycle. scripts/lint-boundaries.test.ts proves both rules fire.
 */
function webBoundaries() {
  const root = "./apps/web/src";
  const message =
    "A feature uses another only through its index.ts; move what both need to lib/, components/, api/ or shared/.";
  return {
    files: ["apps/web/src/**/*.{ts,tsx}"],
    plugins: { "import-x": importX },
    // Let the plugin read TypeScript files to follow imports through them (no-cycle).
    settings: {
      "import-x/extensions": [".ts", ".tsx"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            ...featureZones(`${root}/features`, message),
            ...["lib", "components", "api", "shared"].map((folder) => ({
              target: `${root}/${folder}`,
              from: `${root}/features`,
              message: "Shared code may not depend on a feature.",
            })),
          ],
        },
      ],
    },
  };
}

/**
 * The server's feature boundaries: a feature (apps/server/src/features/<x>/) may import another
 * feature only through that feature's index.ts, which exports what the others use; lib/, db/ and
 * plugins/ are open to all, and lib/ and db/ never import a feature (what a feature and they both
 * need moves down to them). scripts/lint-boundaries.test.ts proves the rules fire.
 */
function serverBoundaries() {
  const root = "./apps/server/src";
  return {
    files: ["apps/server/src/**/*.ts"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/extensions": [".ts"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts"] },
    },
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            ...featureZones(
              `${root}/features`,
              "A server feature uses another only through its index.ts; export what it needs there.",
            ),
            ...["db", "lib"].map((folder) => ({
              target: `${root}/${folder}`,
              from: `${root}/features`,
              message: "db/ and lib/ may not depend on a feature; move what both need down here.",
            })),
          ],
        },
      ],
    },
  };
}

/**
 * No import cycles in the server, its scripts and the contract (the web app's are refused in
 * webBoundaries). A cycle is broken by moving what both sides need down (to lib/, db/, or a small
 * leaf module of the feature, such as a types-only file) or by the caller passing a function in.
 * scripts/lint-boundaries.test.ts proves the rule fires.
 */
function serverCycles() {
  return {
    files: [
      "apps/server/src/**/*.ts",
      "apps/server/scripts/**/*.ts",
      "packages/contract/src/**/*.ts",
    ],
    plugins: { "import-x": importX },
    settings: {
      "import-x/extensions": [".ts"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts"] },
    },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  };
}

/**
 * One zone per feature folder under `root`: the feature may import its own files and the other
 * features' index.ts files, nothing else of theirs.
 */
function featureZones(root, message) {
  const features = fs
    .readdirSync(new URL(root, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  return features.map((feature) => ({
    target: `${root}/${feature}`,
    from: root,
    except: [
      `./${feature}`,
      ...features.filter((other) => other !== feature).map((other) => `./${other}/index.ts`),
    ],
    message,
  }));
}
