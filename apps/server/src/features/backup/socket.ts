import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { FastifyInstance } from "fastify";
import type { Database } from "../../db/client.ts";

/** Linux's limit on a unix socket's path (sun_path less its closing zero). */
const MAX_SOCKET_PATH = 107;

/** The running server's backup socket in DATA_DIR. */
export const backupSocketPath = (dataDir: string) => path.resolve(dataDir, "backup.sock");

/**
 * A consistent copy of the embedded database: taken while no transaction is open and no
 * statement runs (PGlite's own lock on its one connection), so it holds every committed write and
 * none half done.
 */
export async function dumpPglite(client: PGlite): Promise<Buffer> {
  const blob = await client._runExclusiveTransaction(() => client.dumpDataDir("gzip"));
  return Buffer.from(await blob.arrayBuffer());
}

/**
 * PGlite has one process: while the server runs, `npm run backup` takes its copy from the server,
 * on a unix socket in DATA_DIR that only DATA_DIR's owner may open (mode 0600, no network, no
 * token). Each connection gets `<length>\n<the data directory as tar.gz>`.
 */
export async function installBackupSocket(
  app: FastifyInstance,
  database: Database,
  dataDir: string,
): Promise<void> {
  const client = database.pglite;
  if (!client || dataDir === "memory://") return;
  const file = backupSocketPath(dataDir);
  if (Buffer.byteLength(file) > MAX_SOCKET_PATH) {
    app.log.warn(`${file} is too long for a socket: back up with the server stopped`);
    return;
  }
  // A socket left by a server that was killed.
  await fs.rm(file, { force: true });
  const server = net.createServer((socket) => {
    socket.on("error", () => {});
    dumpPglite(client).then(
      (bytes) => socket.end(Buffer.concat([Buffer.from(`${bytes.length}\n`), bytes])),
      (error: unknown) => {
        app.log.error({ err: error }, "backup failed");
        socket.destroy();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(file, () => resolve());
  });
  await fs.chmod(file, 0o600);
  // Before the database closes (onClose hooks run last registered first): a copy being taken
  // finishes first.
  app.addHook("onClose", async () => {
    await new Promise((resolve) => server.close(resolve));
    await fs.rm(file, { force: true });
  });
}
