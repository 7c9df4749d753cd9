import fs from "node:fs/promises";
import path from "node:path";

/**
 * The embedded database has one process: a command that writes to it while a server has it open
 * would damage it. PGlite keeps postmaster.pid while it is open. Answers the refusal to print, or
 * null when the command may go on. `what` names the command ("Import", "Granting the role").
 */
export async function embeddedInUse(dataDir: string, what: string): Promise<string | null> {
  if (dataDir === "memory://") return `DATA_DIR=memory:// holds no data for this command`;
  const pid = path.join(dataDir, "pglite", "postmaster.pid");
  const inUse = await fs.access(pid).then(
    () => true,
    () => false,
  );
  if (!inUse) return null;
  return (
    `${what} refused: ${path.join(dataDir, "pglite")} is in use (postmaster.pid): stop the server` +
    " (or start and stop it once if it did not stop cleanly), then run it again. On PostgreSQL" +
    " (DATABASE_URL) it runs while servers serve."
  );
}
