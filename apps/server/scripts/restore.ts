/**
 * `npm run restore -- FILE`: brings a backup back into an empty DATA_DIR (embedded database) or an
 * empty PostgreSQL database (DATABASE_URL); refuses a non-empty one (exit 1, nothing changed).
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
  console.error(
    `Restore refused: ${error instanceof BackupRefusal ? error.message : String(error)}`,
  );
  process.exit(1);
}
