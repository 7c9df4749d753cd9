/**
 * A feed file's import from its text to the catalog: read, every row checked, then (unless a row
 * was refused and skipping was not asked) written or, in a dry run, only compared.
 */
import { readFeed, detectFormat, type FeedFormat } from "./feed-read.ts";
import { checkRows, type Refusal } from "./feed-row.ts";
import { importFeed, type ImportDeps, type ImportDiff } from "./import.ts";

export interface RunOptions {
  /** The file's name: its extension says the format. */
  fileName: string;
  /** The deployment's currency: every price must be in it. */
  currency: string;
  dryRun?: boolean;
  skipInvalid?: boolean;
  full?: boolean;
  batchSize?: number;
}

export interface RunResult {
  format: FeedFormat;
  rows: number;
  refusals: Refusal[];
  /** Undefined when refused rows stopped the import (nothing was changed). */
  diff: ImportDiff | undefined;
}

export async function runImport(
  deps: ImportDeps,
  text: string,
  options: RunOptions,
): Promise<RunResult> {
  const format = detectFormat(options.fileName, text);
  const rows = readFeed(text, format);
  const { products, refusals, refusedKeys } = checkRows(rows, options.currency);
  if (refusals.length > 0 && !options.skipInvalid) {
    return { format, rows: rows.length, refusals, diff: undefined };
  }
  const diff = await importFeed(deps, products, {
    dryRun: options.dryRun ?? false,
    full: options.full ?? false,
    keepKeys: refusedKeys,
    ...(options.batchSize ? { batchSize: options.batchSize } : {}),
  });
  return { format, rows: rows.length, refusals, diff };
}
