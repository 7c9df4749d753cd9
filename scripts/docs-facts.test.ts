/**
 * What the code and the architecture say of each other, beyond paths (docs-paths.test.ts):
 * - no comment or text in the code cites an issue or a document outside the repository (the
 *   product documents beside it change on their own); a comment states the rule itself. Migrations
 *   and the upgrade fixtures are left as they ran: they are history;
 * - docs/ARCHITECTURE.md names every schema file and every lib module of the server, so a newcomer
 *   finds each in it;
 * - the facts it states about error bodies hold in the code that makes them;
 * - docs/configuration.md names every variable the server's config reads;
 * - `npm run serve` starts the server with the Node options the benchmarks and tests start it with.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SERVE_NODE_ARGS } from "../apps/server/scripts/server-process.ts";

const repo = path.resolve(import.meta.dirname, "..");
const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
  cwd: repo,
  encoding: "utf8",
})
  .split("\n")
  .filter((file) => file && fs.existsSync(path.join(repo, file)));
const read = (file: string) => fs.readFileSync(path.join(repo, file), "utf8");
const architecture = read("docs/ARCHITECTURE.md");

/** An issue by number, or one of the product documents that live outside the repository. */
const citation = /\b[Ii]ssues? #?\d+|\b(?:SPEC|DESIGN|API)\.md\b|\bDESIGN sections? \d+/;
/** History as it ran: migrations, and the released code kept as upgrade fixtures. */
const history = [/^apps\/server\/drizzle\//, /^apps\/server\/test\/fixtures\//];
/** The tests that name what they look for or skip. */
const self = ["scripts/docs-facts.test.ts", "scripts/docs-paths.test.ts"];

describe("the code's comments", () => {
  it("cite no issue and no document outside the repository", () => {
    const code = files.filter(
      (file) =>
        /\.(ts|tsx|js|sql|css|html)$/.test(file) &&
        !self.includes(file) &&
        !history.some((h) => h.test(file)),
    );
    expect(code.length).toBeGreaterThan(100);
    const found = code.flatMap((file) =>
      read(file)
        .split("\n")
        .flatMap((line, i) => (citation.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});

describe("docs/ARCHITECTURE.md", () => {
  /** Named from the server's src/ (`db/schema/<file>`, `lib/<file>`), as the architecture does. */
  const named = (file: string) =>
    architecture.includes(`\`${file.replace("apps/server/src/", "")}\``);

  it("names every schema file of the server", () => {
    const schema = files.filter((f) => /^apps\/server\/src\/db\/schema\/[^/]+\.ts$/.test(f));
    expect(schema.length).toBeGreaterThan(5);
    expect(schema.filter((f) => !named(f))).toEqual([]);
  });

  it("names every lib module of the server", () => {
    const lib = files.filter(
      (f) => /^apps\/server\/src\/lib\/[^/]+\.ts$/.test(f) && !f.endsWith(".test.ts"),
    );
    expect(lib.length).toBeGreaterThan(5);
    expect(lib.filter((f) => !named(f))).toEqual([]);
  });

  it("says error bodies carry requestId, as the error handler writes them", () => {
    expect(architecture).toMatch(/`requestId`/);
    expect(read("apps/server/src/plugins/error-handler.ts")).toMatch(/requestId/);
  });
});

describe("docs/configuration.md", () => {
  it("names every environment variable the server's config reads", () => {
    const config = read("apps/server/src/config.ts");
    const variables = [...config.matchAll(/^\s+([A-Z][A-Z0-9_]+): z\b/gm)].map((m) => m[1]!);
    expect(variables.length).toBeGreaterThan(20);
    const documented = read("docs/configuration.md");
    expect(variables.filter((v) => !documented.includes(`\`${v}\``))).toEqual([]);
  });
});

describe("npm run serve", () => {
  it("starts the server with the Node options the benchmarks and tests start it with", () => {
    const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> })
      .scripts;
    expect(scripts.serve).toBe(["node", ...SERVE_NODE_ARGS, "apps/server/src/main.ts"].join(" "));
  });
});
