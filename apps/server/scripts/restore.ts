/**
 * `npm run restore -- FILE`: brings a backup back into an empty DATA_DIR (embedded database) or an
 * empty PostgreSQL database (DATABASE_URL); refuses a non-empty one, or a truncated or altered
 * file, saying why (exit 1, nothing changed).
 */
import { loadConfig } from "../src/config.ts";
import { BackupRefusal, restore } from "../src/features/backup/backup.ts";

const file = process.argv[2];
if (!file || process.argv.length > 3) {
  console.error("Usage: npm run restore -- FILE");
  process.exit(1);
}
const started = performance.now();
try {
  const result = await restore(loadConfig(), file);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.info(
    `Restored the backup of ${result.createdAt} into the ${result.database === "postgres" ? "PostgreSQL" : "embedded"}` +
      ` database in ${seconds} s. Start the server on it (it runs any newer migrations).`,
  );
} catch (error) {
  // A refusal says what is wrong; anything else at least its message, never just its class.
  const message =
    error instanceof BackupRefusal ? error.message : (error as Error).message || String(error);
  console.error(`Restore refused: ${message}`);
  process.exit(1);
}
