/**
 * `npm run backup -- FILE` and `npm run restore -- FILE` (scripts/backup.ts, restore.ts), with the
 * server's configuration (DATABASE_URL, DATA_DIR, JWT_SECRET). Decision 024.
 */
import { spawn } from "node:child_process";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { Config } from "../../config.ts";
import { secretFile } from "../../lib/secrets.ts";
import { describeDump, dumpDefect, headerLine, readHeader, type BackupHeader } from "./archive.ts";
import { backupSocketPath, dumpPglite } from "./socket.ts";

const gunzip = promisify(zlib.gunzip);

/** What an operator should see: the backup or restore is refused, nothing was changed. */
export class BackupRefusal extends Error {}

export interface BackupResult {
  database: BackupHeader["database"];
  /** pg_dump; the running server (its socket); the stopped server's directory, opened here. */
  via: "pg_dump" | "server" | "directory";
  bytes: number;
}

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

/** DATA_DIR's generated secret, when the server uses it (no JWT_SECRET). */
async function generatedSecret(config: Config): Promise<string | undefined> {
  if (config.jwtSecret || config.dataDir === "memory://") return undefined;
  try {
    return (await fs.readFile(secretFile(config.dataDir), "utf8")).trim();
  } catch {
    return undefined;
  }
}

export async function backup(config: Config, file: string): Promise<BackupResult> {
  if (await exists(file)) throw new BackupRefusal(`${file} exists: give the backup a new name`);
  const database = config.databaseUrl ? "postgres" : "pglite";
  const secret = await generatedSecret(config);
  const header = (dump?: Buffer) =>
    headerLine({
      database,
      createdAt: new Date().toISOString(),
      ...(secret ? { secret } : {}),
      ...(dump ? { dump: describeDump(dump) } : {}),
    });
  // Written beside the target and renamed when complete: a failed backup leaves no FILE.
  const partial = `${file}.partial`;
  const out = createWriteStream(partial, { flags: "w", mode: 0o600 });
  let via: BackupResult["via"];
  try {
    if (config.databaseUrl) {
      out.write(header());
      await pgDump(config.databaseUrl, out);
      via = "pg_dump";
    } else {
      const copy = await pgliteCopy(config.dataDir);
      via = copy.via;
      out.write(header(copy.bytes));
      await new Promise<void>((resolve, reject) =>
        out.end(copy.bytes, (error?: Error | null) => (error ? reject(error) : resolve())),
      );
    }
    await fs.rename(partial, file);
  } catch (error) {
    out.destroy();
    await fs.rm(partial, { force: true });
    throw error;
  }
  return { database, via, bytes: (await fs.stat(file)).size };
}

/** pg_dump's custom format: one snapshot of the whole database, while writes go on. */
function pgDump(url: string, out: NodeJS.WritableStream): Promise<void> {
  const child = spawn("pg_dump", ["--format=custom", "--dbname", url], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  return finished(child, "pg_dump", pipeline(child.stdout!, out));
}

async function finished(
  child: ReturnType<typeof spawn>,
  name: string,
  piping: Promise<void>,
): Promise<void> {
  // Awaited below, after the exit code: until then its failure is not unhandled.
  piping.catch(() => undefined);
  let stderr = "";
  child.stderr?.on("data", (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", (error) =>
      reject(new Error(`${name} could not run (${error.message}): install the PostgreSQL client`)),
    );
    child.once("close", resolve);
  });
  // Its own words first: a tool that stops early also breaks the pipe feeding it.
  if (code !== 0) throw new Error(`${name} failed (exit ${code}): ${stderr.trim()}`);
  await piping;
}

async function pgliteCopy(
  dataDir: string,
): Promise<{ bytes: Buffer; via: "server" | "directory" }> {
  try {
    return { bytes: await fromServer(backupSocketPath(dataDir)), via: "server" };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ECONNREFUSED") throw error;
  }
  // No server answers: open the directory here, unless something still has it open.
  const dir = path.join(dataDir, "pglite");
  if (!(await exists(dir))) throw new BackupRefusal(`${dir} holds no database`);
  if (await exists(path.join(dir, "postmaster.pid"))) {
    throw new BackupRefusal(
      `${dir} is in use (postmaster.pid) but no server answers on ${backupSocketPath(dataDir)}: ` +
        "a server runs without its backup socket, or the last one did not stop cleanly. " +
        "Stop the server (or start and stop it once), then back up again.",
    );
  }
  const client = await PGlite.create(dir);
  try {
    return { bytes: await dumpPglite(client), via: "directory" };
  } finally {
    await client.close();
  }
}

/** The running server's copy: `<length>\n<bytes>`; a short answer is an error. */
function fromServer(socketFile: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(socketFile);
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.once("error", reject);
    socket.once("end", () => {
      const all = Buffer.concat(chunks);
      const newline = all.indexOf(0x0a);
      const length = Number(all.subarray(0, Math.max(newline, 0)).toString());
      const bytes = all.subarray(newline + 1);
      if (newline < 0 || bytes.length !== length) {
        reject(new Error("the server's copy ended early (see its log)"));
      } else resolve(bytes);
    });
  });
}

export interface RestoreResult {
  database: BackupHeader["database"];
  createdAt: string;
}

export async function restore(config: Config, file: string): Promise<RestoreResult> {
  const handle = await fs.open(file, "r");
  const start = Buffer.alloc(16 * 1024);
  const { bytesRead } = await handle.read(start, 0, start.length, 0);
  await handle.close();
  let parsed;
  try {
    parsed = readHeader(start.subarray(0, bytesRead));
  } catch (error) {
    throw new BackupRefusal(`${file}: ${(error as Error).message}`);
  }
  const { header, dumpOffset } = parsed;
  const target = config.databaseUrl ? "postgres" : "pglite";
  if (header.database !== target) {
    throw new BackupRefusal(
      header.database === "postgres"
        ? "This is a backup of a PostgreSQL database: set DATABASE_URL to an empty database."
        : "This is a backup of the embedded database: unset DATABASE_URL, set DATA_DIR to an empty directory.",
    );
  }
  const secret = config.jwtSecret ? undefined : header.secret;
  const secretPath = secretFile(config.dataDir);
  if (secret && (await exists(secretPath))) {
    const present = (await fs.readFile(secretPath, "utf8")).trim();
    if (present !== secret) {
      throw new BackupRefusal(`${secretPath} holds another server secret: use an empty DATA_DIR`);
    }
  }
  if (config.databaseUrl) await restorePostgres(config.databaseUrl, file, dumpOffset);
  else await restorePglite(config.dataDir, file, parsed);
  if (secret && !(await exists(secretPath))) {
    await fs.mkdir(config.dataDir, { recursive: true });
    await fs.writeFile(secretPath, secret, { mode: 0o600, flag: "wx" });
  }
  return { database: header.database, createdAt: header.createdAt };
}

async function restorePglite(
  dataDir: string,
  file: string,
  { header, dumpOffset }: { header: BackupHeader; dumpOffset: number },
): Promise<void> {
  const dir = path.join(dataDir, "pglite");
  const entries = await fs.readdir(dir).catch(() => []);
  if (entries.length > 0) {
    throw new BackupRefusal(`${dir} already holds a database: restore into an empty DATA_DIR`);
  }
  const dump = (await fs.readFile(file)).subarray(dumpOffset);
  const defect = dumpDefect(header, dump, dumpOffset) ?? (await gzipDefect(dump));
  if (defect) throw new BackupRefusal(`${file} is not a usable Cartner backup: ${defect}`);
  // Loaded under another name and renamed when complete, as a first start makes it; a load that
  // fails leaves neither behind.
  const loading = `${dir}.restoring`;
  await fs.rm(loading, { recursive: true, force: true });
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(dataDir, { recursive: true });
  try {
    const client = await PGlite.create(loading, { loadDataDir: new Blob([dump]) });
    await client.query("select 1");
    await client.close();
  } catch (error) {
    await fs.rm(loading, { recursive: true, force: true });
    throw error;
  }
  await fs.rename(loading, dir);
}

/**
 * Why the tarball does not decompress, or null. A backup made before dumps had checksums is
 * checked by gzip's own length and CRC: PGlite, given a damaged one, fails outside any promise
 * (an uncaught TypeError) and leaves its half-made directory.
 */
async function gzipDefect(dump: Buffer): Promise<string | null> {
  try {
    await gunzip(dump);
    return null;
  } catch (error) {
    return `its database copy is damaged (${(error as Error).message})`;
  }
}

/** Tables, views or sequences outside PostgreSQL's own schemas: the database is in use. */
async function userRelations(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
          and n.nspname not in ('pg_catalog', 'information_schema')
          and n.nspname not like 'pg_toast%'`,
    );
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

async function restorePostgres(url: string, file: string, dumpOffset: number): Promise<void> {
  const count = await userRelations(url);
  if (count > 0) {
    throw new BackupRefusal(
      `The database of DATABASE_URL is not empty (${count} tables, views or sequences): ` +
        "restore into an empty database (createdb)",
    );
  }
  // One transaction: a restore that fails leaves the database empty.
  const child = spawn(
    "pg_restore",
    ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", "--dbname", url],
    { stdio: ["pipe", "ignore", "pipe"] },
  );
  try {
    await finished(
      child,
      "pg_restore",
      pipeline(createReadStream(file, { start: dumpOffset }), child.stdin!),
    );
  } catch (error) {
    // pg_restore checks its own format: a truncated or altered dump fails here, and rolls back.
    throw new BackupRefusal(
      `${file} did not restore, the database is left empty: ${(error as Error).message}`,
    );
  }
}
