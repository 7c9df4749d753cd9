/**
 * The web app's and the server's feature boundaries and the ban on import cycles are enforced by
 * lint (eslint.config.js: webBoundaries, serverBoundaries, serverCycles): these feed ESLint code
 * that breaks them and expect the errors, so removing a rule fails here.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { ESLint } from "eslint";
import { afterAll, describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: repo });
const landing = path.join(repo, "apps/web/src/features/landing");

async function ruleIds(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: file });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

// ESLint loads the whole config (and its type-aware parser) on the first call: seconds on a busy
// 2-core machine.
describe("feature boundaries", { timeout: 60_000 }, () => {
  it("refuse an import of another feature's internals", async () => {
    const ids = await ruleIds(
      'import { CreateSessionForm } from "../sessions/CreateSessionForm.tsx";\nexport const form = CreateSessionForm;\n',
      path.join(landing, "Violation.tsx"),
    );
    expect(ids).toContain("import-x/no-restricted-paths");
  });

  it("allow the same through the feature's index.ts", async () => {
    const ids = await ruleIds(
      'import { CreateSessionForm } from "../sessions/index.ts";\nexport const form = CreateSessionForm;\n',
      path.join(landing, "Allowed.tsx"),
    );
    expect(ids).not.toContain("import-x/no-restricted-paths");
  });

  it("refuse a feature import in the shared folders", async () => {
    const ids = await ruleIds(
      'import { CreateSessionForm } from "../features/sessions/index.ts";\nexport const form = CreateSessionForm;\n',
      path.join(repo, "apps/web/src/lib/violation.ts"),
    );
    expect(ids).toContain("import-x/no-restricted-paths");
  });
});

describe("server feature boundaries", { timeout: 60_000 }, () => {
  const carts = path.join(repo, "apps/server/src/features/carts");

  it("refuse an import of another feature's internals", async () => {
    const ids = await ruleIds(
      'import { writeSession } from "../sessions/lifecycle/write.ts";\nexport const write = writeSession;\n',
      path.join(carts, "violation.ts"),
    );
    expect(ids).toContain("import-x/no-restricted-paths");
  });

  it("allow the same through the feature's index.ts", async () => {
    const ids = await ruleIds(
      'import { writeSession } from "../sessions/index.ts";\nexport const write = writeSession;\n',
      path.join(carts, "allowed.ts"),
    );
    expect(ids).not.toContain("import-x/no-restricted-paths");
  });

  it.each(["db", "lib"])("refuse a feature import in %s/", async (folder) => {
    const ids = await ruleIds(
      'import { writeSession } from "../features/sessions/index.ts";\nexport const write = writeSession;\n',
      path.join(repo, "apps/server/src", folder, "violation.ts"),
    );
    expect(ids).toContain("import-x/no-restricted-paths");
  });
});

describe("cycles", { timeout: 60_000 }, () => {
  const folders = {
    web: landing,
    server: path.join(repo, "apps/server/src/lib"),
    contract: path.join(repo, "packages/contract/src"),
  };
  const written: string[] = [];
  afterAll(async () => {
    await Promise.all(written.map((file) => fs.rm(file, { force: true })));
  });

  it.each(Object.entries(folders))("are refused in the %s", async (_, folder) => {
    // no-cycle follows imports on disk: two real files that import each other.
    const [a, b] = ["zz-cycle-a.ts", "zz-cycle-b.ts"].map((name) => path.join(folder, name));
    written.push(a!, b!);
    await fs.writeFile(a!, 'import { b } from "./zz-cycle-b.ts";\nexport const a = () => b;\n');
    await fs.writeFile(b!, 'import { a } from "./zz-cycle-a.ts";\nexport const b = () => a;\n');
    const results = await eslint.lintFiles([a!, b!]);
    for (const result of results) {
      expect(result.messages.map((m) => m.ruleId)).toContain("import-x/no-cycle");
    }
    expect(results).toHaveLength(2);
  });
});
