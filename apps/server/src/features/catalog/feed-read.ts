/**
 * Reading a product feed in Google Merchant Center's formats: its tab-separated file, its RSS 2.0
 * XML with the `g:` namespace, and CSV with the same columns. Each row comes out as its
 * attributes' text, with where it was in the file (a line, or an item for XML) for refusals.
 */
import { parse as parseCsv } from "csv-parse/sync";
import { XMLParser } from "fast-xml-parser";

export type FeedFormat = "tsv" | "csv" | "xml";

export interface RawRow {
  /** "line 7" (the file's line, the header being line 1) or "item 3" (the XML's third item). */
  where: string;
  /** Attribute name (lower case, `g:` and spaces gone: "image_link") → its trimmed text. */
  fields: Record<string, string>;
}

export class FeedFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FeedFormatError";
  }
}

/** The format a file's name says (.tsv/.txt, .csv, .xml), else what its first characters show. */
export function detectFormat(fileName: string, text: string): FeedFormat {
  const extension = /\.([a-z]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  if (extension === "tsv" || extension === "txt") return "tsv";
  if (extension === "csv") return "csv";
  if (extension === "xml" || extension === "rss") return "xml";
  const start = text.replace(/^\uFEFF/, "").trimStart();
  if (start.startsWith("<")) return "xml";
  const firstLine = start.split(/\r?\n/, 1)[0] ?? "";
  return firstLine.includes("\t") ? "tsv" : "csv";
}

export function readFeed(text: string, format: FeedFormat): RawRow[] {
  return format === "xml" ? readXml(text) : readDelimited(text, format);
}

/**
 * Google's header names are its attribute names, also written with spaces ("image link") or the
 * namespace ("g:price") by some exporters.
 */
export const attributeName = (header: string) =>
  header
    .trim()
    .toLowerCase()
    .replace(/^g:/, "")
    .replace(/[\s-]+/g, "_");

function readDelimited(text: string, format: "tsv" | "csv"): RawRow[] {
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parseCsv(text, {
      bom: true,
      delimiter: format === "tsv" ? "\t" : ",",
      // Google's tab-separated files are not quoted: a value's quote marks are its own (12" pizza).
      quote: format === "tsv" ? false : '"',
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
    }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
  } catch (error) {
    throw new FeedFormatError(`the ${format.toUpperCase()} file cannot be read: ${message(error)}`);
  }
  const [header, ...rows] = records;
  if (!header) throw new FeedFormatError("the file is empty");
  const names = header.record.map(attributeName);
  if (!names.includes("id")) {
    throw new FeedFormatError(`the header (line 1) has no "id" column: ${names.join(", ")}`);
  }
  return rows.map(({ record, info }) => {
    const fields: Record<string, string> = {};
    names.forEach((name, i) => {
      const value = record[i]?.trim();
      // A repeated column (additional_image_link) keeps its first value.
      if (value !== undefined && value !== "" && fields[name] === undefined) fields[name] = value;
    });
    return { where: `line ${info.lines}`, fields };
  });
}

const xmlParser = new XMLParser({
  removeNSPrefix: true,
  // Every value stays text: a GTIN keeps its leading zeros, an id "00123" stays itself.
  parseTagValue: false,
  ignoreAttributes: true,
  trimValues: true,
  isArray: (_name, jpath) => jpath === "rss.channel.item",
});

function readXml(text: string): RawRow[] {
  let document: Record<string, unknown>;
  try {
    document = xmlParser.parse(text, true) as Record<string, unknown>;
  } catch (error) {
    throw new FeedFormatError(`the XML file cannot be read: ${message(error)}`);
  }
  const rss = document.rss as { channel?: { item?: unknown[] } } | undefined;
  if (!rss?.channel) throw new FeedFormatError("the XML file is not an RSS 2.0 <rss><channel>");
  const items = rss.channel.item ?? [];
  return items.map((item, index) => {
    const fields: Record<string, string> = {};
    if (item && typeof item === "object") {
      for (const [name, value] of Object.entries(item)) {
        const textValue = textOf(value);
        if (textValue !== undefined && textValue !== "") fields[attributeName(name)] = textValue;
      }
    }
    return { where: `item ${index + 1}`, fields };
  });
}

/** An element's text: a repeated element's first, none for a group (g:shipping's parts). */
function textOf(value: unknown): string | undefined {
  if (Array.isArray(value)) return textOf(value[0]);
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
