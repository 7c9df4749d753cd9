/**
 * `npm run backup -- FILE`: a consistent copy of the database the server's configuration names
 * (DATABASE_URL: pg_dump; else DATA_DIR's embedded database, through the running server or,
 * when it is stopped, directly). Exit 1 with the reason when it cannot.
 */
import { loadConfig } from "../src/config.ts";
import { backup, BackupRefusal } from "../src/features/backup/backup.ts";

const file = process.argv[2];
if (!file || process.argv.length > 3) {
  console.error("Usage: npm run backup -- FILE");
  process.exit(1);
}
const started = performance.now();
try {
  const result = await backup(loadConfig(), file);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.info(
    `Backup of the ${result.database === "postgres" ? "PostgreSQL" : "embedded"} database` +
      ` (via ${result.via}) written to ${file}: ${(result.bytes / 1e6).toFixed(1)} MB in ${seconds} s`,
  );
} catch (error) {
  console.error(`Backup failed: ${error instanceof BackupRefusal ? error.message : String(error)}`);
  process.exit(1);
}
