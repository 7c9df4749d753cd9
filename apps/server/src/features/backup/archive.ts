/**
 * A backup file: one header line, then the database's own dump.
 *
 *   CARTNER-BACKUP 1 {"database":"pglite","createdAt":"…","secret":"…","dump":{…}}\n
 *   <PGlite: the data directory as tar.gz | PostgreSQL: pg_dump's custom format>
 *
 * The header says which restore applies and carries DATA_DIR's generated server secret when the
 * server uses one (no JWT_SECRET), so a restored copy keeps people signed in, invite links
 * showable and push subscriptions valid. `tail -n +2 FILE` is the plain dump. An embedded dump
 * (held in memory whole) is described by its length and SHA-256, so a truncated or altered file
 * is refused before anything is written; pg_restore checks its own format (in one transaction).
 */
import { createHash } from "node:crypto";
import { z } from "zod";

const MAGIC = "CARTNER-BACKUP 1 ";
/** A header is small; a file whose first line is longer is not a backup. */
const MAX_HEADER_BYTES = 16 * 1024;

export const BackupHeaderSchema = z.strictObject({
  database: z.enum(["pglite", "postgres"]),
  createdAt: z.iso.datetime(),
  secret: z.string().min(32).optional(),
  /** Absent in backups made before it was written. */
  dump: z
    .strictObject({
      bytes: z.number().int().nonnegative(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
    })
    .optional(),
});
export type BackupHeader = z.infer<typeof BackupHeaderSchema>;

export function headerLine(header: BackupHeader): Buffer {
  return Buffer.from(`${MAGIC}${JSON.stringify(BackupHeaderSchema.parse(header))}\n`, "utf8");
}

/** The header of a file's first bytes and where its dump starts; throws when it is no backup. */
export function readHeader(start: Buffer): { header: BackupHeader; dumpOffset: number } {
  const end = start.subarray(0, MAX_HEADER_BYTES).indexOf(0x0a);
  const line = end < 0 ? "" : start.subarray(0, end).toString("utf8");
  if (!line.startsWith(MAGIC)) throw new Error("not a Cartner backup (npm run backup writes one)");
  let json: unknown;
  try {
    json = JSON.parse(line.slice(MAGIC.length));
  } catch {
    throw new Error("the backup's header is damaged");
  }
  const parsed = BackupHeaderSchema.safeParse(json);
  if (!parsed.success) throw new Error("the backup's header is damaged");
  return { header: parsed.data, dumpOffset: end + 1 };
}

/** The header's description of a dump. */
export function describeDump(dump: Buffer): NonNullable<BackupHeader["dump"]> {
  return { bytes: dump.length, sha256: createHash("sha256").update(dump).digest("hex") };
}

/**
 * Why a dump is not the one its header describes (cut short, longer, or altered), or null when it
 * is, or when the header describes none.
 */
export function dumpDefect(header: BackupHeader, dump: Buffer, dumpOffset: number): string | null {
  if (!header.dump) return null;
  const { bytes, sha256 } = header.dump;
  const end = dumpOffset + bytes;
  if (dump.length < bytes) {
    return `truncated at byte ${dumpOffset + dump.length} of ${end} (copy the whole file again)`;
  }
  if (dump.length > bytes) return `${dump.length - bytes} bytes longer than the backup it names`;
  if (describeDump(dump).sha256 !== sha256) {
    return "its checksum does not match: the file was altered or damaged after it was written";
  }
  return null;
}
