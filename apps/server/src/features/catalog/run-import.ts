/**
 * A feed file's import from its text to the catalog: read, every row checked, then (unless a row
 * was refused and skipping was not asked) written and its pictures fetched or, in a dry run, only
 * compared.
 */
import { readFeed, detectFormat, type FeedFormat } from "./feed-read.ts";
import { checkRows, type Refusal } from "./feed-row.ts";
import { importFeed, type ImportDeps, type ImportDiff } from "./import.ts";
import {
  importPhotos,
  photosToFetch,
  type PhotoImportDeps,
  type PhotoReport,
} from "./import-photos.ts";

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
  /**
   * The rows' pictures: fetched, or in a dry run only counted (`fetched` then says how many would
   * be); undefined when pictures were not asked for or the import was refused.
   */
  photos: PhotoReport | undefined;
}

export async function runImport(
  deps: ImportDeps & { photos?: Omit<PhotoImportDeps, "db" | "notifyServers"> },
  text: string,
  options: RunOptions,
): Promise<RunResult> {
  const format = detectFormat(options.fileName, text);
  const rows = readFeed(text, format);
  const { products, refusals, refusedKeys } = checkRows(rows, options.currency);
  if (refusals.length > 0 && !options.skipInvalid) {
    return { format, rows: rows.length, refusals, diff: undefined, photos: undefined };
  }
  const diff = await importFeed(deps, products, {
    dryRun: options.dryRun ?? false,
    full: options.full ?? false,
    keepKeys: refusedKeys,
    ...(options.batchSize ? { batchSize: options.batchSize } : {}),
  });
  let photos: PhotoReport | undefined;
  if (deps.photos) {
    const { work, unchanged, linked } = await photosToFetch(deps.db, products);
    photos = options.dryRun
      ? { fetched: linked - unchanged, unchanged, failed: [], seconds: 0 }
      : await importPhotos(
          { ...deps.photos, db: deps.db, notifyServers: deps.notifyServers ?? false },
          work,
          unchanged,
        );
  }
  return { format, rows: rows.length, refusals, diff, photos };
}
