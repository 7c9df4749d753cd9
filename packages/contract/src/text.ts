import { z } from "zod";

/*
 * One string type for every text a person types: names, bio, codes, passcodes,
 * emails, search terms, invite targets. PostgreSQL refuses NUL in text, and control, bidi and
 * invisible characters in names are a spoofing tool, so they are refused here with a field
 * message instead of reaching the database as a 500.
 */

/** C0 controls (NUL, ESC, ...), DEL and C1 controls; tab, CR and LF are judged separately. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const LINE_BREAKS_AND_TABS = /[\t\n\r]/;
/** Explicit direction marks, embeddings, overrides and isolates (U+202E flips what follows). */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
/** Characters that draw nothing: a name made only of these (and spaces) looks empty. */
// eslint-disable-next-line no-misleading-character-class -- U+034F is listed on its own on purpose
const INVISIBLE = /[\s\u00AD\u034F\u115F\u1160\u180E\u200B-\u200D\u2060-\u2064\u3164\uFEFF]/gu;

/** True when every surrogate in the string is half of a pair (JSON can carry lone ones). */
export function wellFormed(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      return false;
    }
  }
  return true;
}

export interface TextOptions {
  /** Longest accepted length, after normalising and trimming. */
  max: number;
  /** Shortest; with `minMessage` for the "required" case. */
  min?: number;
  minMessage?: string;
  maxMessage?: string;
  /** Line breaks and tabs allowed (a bio); otherwise refused. */
  multiline?: boolean;
  /** Trim surrounding white space (default true). */
  trim?: boolean;
  /**
   * A name people see (display name, session name, passcode): no bidi controls, and at least one
   * visible character when not empty.
   */
  name?: boolean;
}

/** A user-supplied string: well-formed, NFC-normalised, trimmed, free of control characters. */
export function text(options: TextOptions) {
  let schema = z
    .string()
    .refine(wellFormed, "must not contain broken characters (unpaired surrogates)")
    .normalize("NFC");
  if (options.trim !== false) schema = schema.trim();
  schema = schema.refine(
    (value) =>
      !CONTROLS.test(value) && (options.multiline === true || !LINE_BREAKS_AND_TABS.test(value)),
    options.multiline ? "must not contain control characters" : "must be a single line of text",
  );
  if (options.name) {
    schema = schema
      .refine((value) => !BIDI_CONTROLS.test(value), "must not contain text-direction characters")
      .refine(
        (value) => value === "" || value.replace(INVISIBLE, "") !== "",
        "must contain a visible character",
      );
  }
  if (options.min !== undefined) schema = schema.min(options.min, options.minMessage);
  return schema.max(options.max, options.maxMessage);
}
