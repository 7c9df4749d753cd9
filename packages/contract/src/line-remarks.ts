/** A line's remarks in words; no zod here, so the web's pages import it freely. */
/** How a line's substitute choice reads for whoever shops ("any" says nothing). */
export const SUBSTITUTE_TEXT = {
  any: null,
  similar: "Something similar if it is not there",
  none: "No substitute",
} as const;

/**
 * What whoever shops (and later reads the order) should know of a line, in words: its price is
 * an estimate, its note, its substitute choice. The receipt, the CSV and the mails say these.
 */
export function lineRemarks(line: {
  estimated?: boolean;
  note?: string | null;
  substitute?: keyof typeof SUBSTITUTE_TEXT;
}): string[] {
  const remarks: string[] = [];
  if (line.estimated) remarks.push("Estimated price");
  if (line.note) remarks.push(`Note: ${line.note}`);
  const substitute = SUBSTITUTE_TEXT[line.substitute ?? "any"];
  if (substitute) remarks.push(substitute);
  return remarks;
}
