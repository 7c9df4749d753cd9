/**
 * Docs that stay true: the README, the guide, the testing page and the architecture name files,
 * folders and functions of the code. When code moves, this test names every line that still points
 * to the old place, so the doc is updated in the same change.
 *
 * What it checks, per document:
 * - every path in backticks (`apps/server/src/lib/errors.ts`, `src/db/functions/`,
 *   `features/auth/codes.ts`, `receipt.ts`) names a file or folder in the repository: from the
 *   root, or below one of the roots the docs shorten paths to (`apps/server/src`, `apps/web/src`,
 *   `apps/server/test`, ...); a bare file name must exist somewhere;
 * - the file tree in a fenced block (a path at the start of a line, the lines indented below it
 *   relative to it) names files and folders that exist;
 * - a function attributed to a file (`name()` in `path`, `name()` (`path`), `path` `name()`) is
 *   named in that file (or, for a folder, in a file in it);
 * - every relative link, and its #anchor in a Markdown file, leads somewhere.
 * It does not check what the prose says about the code; that stays a reviewer's job.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "..");
const documents = [
  "README.md",
  "docs/guide.md",
  "docs/testing.md",
  "docs/ARCHITECTURE.md",
  "docs/configuration.md",
];

/** Where the docs' shortened paths start (`features/auth/` means `apps/server/src/features/auth/`). */
const roots = [
  "",
  "apps/server",
  "apps/server/src",
  "apps/server/src/features",
  "apps/server/test",
  "apps/web",
  "apps/web/src",
  "apps/web/src/features",
  "packages/contract",
  "packages/contract/src",
  "e2e",
];

const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
  cwd: repo,
  encoding: "utf8",
})
  .split("\n")
  .filter((file) => file && fs.existsSync(path.join(repo, file)));
const folders = new Set(
  files.flatMap((file) =>
    file
      .split("/")
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join("/")),
  ),
);

/** Made by a start or a build, not kept in git. */
const generated = new Set(["data", "apps/web/dist"]);
/** The shared product documents live beside the repository (`../shared/`), not in it. */
const outside = new Set(["SPEC.md", "DESIGN.md", "API.md"]);

const codeFile = /\.(ts|tsx|js|mjs|sql|json|md|css|yml|yaml|sh)$/;

/** A backticked text that names a path, or null for commands, URLs, routes, variables and code. */
function pathOf(text: string): string | null {
  const candidate = text.trim().replace(/^\.\//, "");
  if (!/^[\w.@*<>/-]+$/.test(candidate)) return null; // spaces, quotes, colons, braces: not a path
  if (candidate.startsWith("/") || candidate.startsWith("..")) return null; // a route or outside
  if (candidate.startsWith("@")) return null; // a package
  if (generated.has(candidate.replace(/\/$/, "")) || outside.has(candidate)) return null;
  if (/^[A-Z][A-Z_]*\//.test(candidate)) return null; // DATA_DIR/pglite: a setting's folder
  if (candidate.includes("/")) return candidate;
  return codeFile.test(candidate) ? candidate : null;
}

function globToRegExp(pattern: string): RegExp {
  const source = pattern
    .split(/(\*|<[^>]+>)/)
    .map((part) =>
      part === "*" || part.startsWith("<") ? "[^/]+" : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("");
  return new RegExp(`^${source}$`);
}

/** The repository files or folders a doc's path may mean; empty when none exists. */
function resolve(docPath: string): string[] {
  const clean = docPath.replace(/\/+$/, "");
  if (!docPath.includes("/")) {
    const pattern = globToRegExp(clean);
    return files.filter((file) => pattern.test(path.posix.basename(file)));
  }
  const found: string[] = [];
  for (const root of roots) {
    const full = root ? `${root}/${clean}` : clean;
    if (/[*<]/.test(full)) {
      const pattern = globToRegExp(full);
      found.push(...files.filter((file) => pattern.test(file)));
    } else if (files.includes(full) || folders.has(full)) {
      found.push(full);
    }
  }
  return found;
}

function mentions(found: string[], name: string): boolean {
  const word = new RegExp(`\\b${name}\\b`);
  const candidates = found.flatMap((entry) =>
    folders.has(entry) ? files.filter((file) => file.startsWith(`${entry}/`)) : [entry],
  );
  return candidates.some((file) => word.test(fs.readFileSync(path.join(repo, file), "utf8")));
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of withoutFences(markdown)) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line.text);
    if (!heading) continue;
    const slug = heading[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count ? `${slug}-${count}` : slug);
  }
  return result;
}

interface Line {
  number: number;
  text: string;
  fenced: boolean;
}

function lines(markdown: string): Line[] {
  let fenced = false;
  return markdown.split("\n").map((text, i) => {
    if (text.startsWith("```")) {
      fenced = !fenced;
      return { number: i + 1, text: "", fenced: false };
    }
    return { number: i + 1, text, fenced };
  });
}

function withoutFences(markdown: string): Line[] {
  return lines(markdown).filter((line) => !line.fenced);
}

function problems(document: string): string[] {
  const markdown = fs.readFileSync(path.join(repo, document), "utf8");
  const found: string[] = [];
  const where = (line: Line) => `${document}:${line.number}`;
  let treeBase = "";

  for (const line of lines(markdown)) {
    if (line.fenced) {
      // A tree: `apps/server   text` at the left, `  src/main.ts   text` below it, relative to it.
      const entry = /^(\s*)(\S+(?:, \S+)*)(?:\s{2,}|$)/.exec(line.text);
      if (!entry) continue;
      const indented = entry[1]!.length > 0;
      for (const name of entry[2]!.split(", ")) {
        const docPath = pathOf(name);
        if (!docPath) continue;
        const full = indented ? `${treeBase}/${docPath}` : docPath;
        if (!indented) treeBase = docPath.replace(/\/+$/, "");
        if (resolve(full).length === 0) found.push(`${where(line)}: no ${full} (in the tree)`);
      }
      continue;
    }

    // Inline code, read across the whole line (a span does not wrap in these docs' style).
    for (const span of line.text.matchAll(/`([^`]+)`/g)) {
      const docPath = pathOf(span[1]!);
      if (docPath && resolve(docPath).length === 0) {
        found.push(`${where(line)}: no file or folder \`${docPath}\``);
      }
    }

    // `name()` in `path`, `name(args)` (`path`), `path` `name()`
    const attributions = [...line.text.matchAll(/`(\w+)\([^`]*\)`,? (?:in |\()`([^`]+)`/g)].map(
      (m) => [m[1]!, m[2]!] as const,
    );
    for (const m of line.text.matchAll(/`([^`]+)` `(\w+)\([^`]*\)`/g)) {
      attributions.push([m[2]!, m[1]!] as const);
    }
    for (const [name, docPath] of attributions) {
      if (!pathOf(docPath)) continue;
      const targets = resolve(pathOf(docPath)!);
      if (targets.length > 0 && !mentions(targets, name)) {
        found.push(`${where(line)}: \`${docPath}\` has no ${name}()`);
      }
    }

    // Relative links and their anchors.
    for (const link of line.text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = link[1]!;
      if (/^[a-z]+:/i.test(target)) continue;
      const [file, anchor] = target.split("#");
      const full = file ? path.posix.join(path.posix.dirname(document), file) : document;
      if (!files.includes(full) && !folders.has(full.replace(/\/$/, ""))) {
        found.push(`${where(line)}: link to missing ${full}`);
      } else if (anchor && full.endsWith(".md")) {
        const text = fs.readFileSync(path.join(repo, full), "utf8");
        if (!anchors(text).has(anchor))
          found.push(`${where(line)}: no heading #${anchor} in ${full}`);
      }
    }
  }
  return found;
}

describe("the docs name what exists", () => {
  for (const document of documents) {
    it(document, () => {
      expect(fs.existsSync(path.join(repo, document)), `${document} is missing`).toBe(true);
      expect(problems(document), "update the doc to the code as it is now").toEqual([]);
    });
  }

  it("would notice a wrong path, tree entry or function", () => {
    expect(pathOf("apps/server/src/nowhere.ts")).toBe("apps/server/src/nowhere.ts");
    expect(resolve("apps/server/src/nowhere.ts")).toEqual([]);
    expect(resolve("features/auth/codes.ts")).toEqual(["apps/server/src/features/auth/codes.ts"]);
    expect(resolve("src/db/functions/<name>.sql").length).toBeGreaterThan(0);
    expect(pathOf("npm run bench")).toBeNull();
    expect(pathOf("/api/live")).toBeNull();
    expect(mentions(["apps/server/src/lib/endpoint.ts"], "route")).toBe(true);
    expect(mentions(["apps/server/src/lib/endpoint.ts"], "noSuchFunction")).toBe(false);
  });
});
