/** What perf:web prints of Lighthouse's results. */
import type { Result } from "lighthouse";

export const score = (lhr: Result, category: string) =>
  Math.round((lhr.categories[category]?.score ?? 0) * 100);
export const metric = (lhr: Result, audit: string) => lhr.audits[audit]?.displayValue ?? "?";

/** A Markdown table (pasted into docs/benchmarks.md as is), columns padded to line up in the terminal too. */
export function markdownTable(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

/** The audits that cost points, so a low score explains itself. */
export function failingAudits(lhr: Result): string[] {
  return Object.values(lhr.categories).flatMap((category) =>
    category.auditRefs
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id]!)
      .filter((audit) => audit.score !== null && audit.score < 0.9)
      .map((audit) => `${category.id}: ${audit.id} (${audit.displayValue ?? audit.score})`),
  );
}
