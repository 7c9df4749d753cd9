/**
 * A backup file: one header line, then the database's own dump.
 *
 *   CARTNER-BACKUP 1 {"database":"pglite","createdAt":"…","secret":"…"}\n
 *   <PGlite: the data directory as tar.gz | PostgreSQL: pg_dump's custom format>
 *
 * The header says which restore applies and carries DATA_DIR's generated server secret when the
 * server uses one (no JWT_SECRET), so a restored copy keeps people signed in, invite links
 * showable and push subscriptions valid. `tail -n +2 FILE` is the plain dump.
 */
import { z } from "zod";

const MAGIC = "CARTNER-BACKUP 1 ";
/** A header is small; a file whose first line is longer is not a backup. */
const MAX_HEADER_BYTES = 16 * 1024;

export const BackupHeaderSchema = z.strictObject({
  database: z.enum(["pglite", "postgres"]),
  createdAt: z.iso.datetime(),
  secret: z.string().min(32).optional(),
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
