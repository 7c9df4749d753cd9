import closeWithGrace from "close-with-grace";
import { buildApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { MigrationError } from "./db/client.ts";

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

let app;
try {
  app = await buildApp(config);
} catch (error) {
  // A failed migration changed nothing: say which one, and do not serve the older schema.
  if (error instanceof MigrationError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

/** The whole stop's limit: past it the process exits at once, with 1. */
const GRACE_MS = 10_000;
/**
 * How long in-flight requests may take to finish. A client that never finishes its request, or
 * stops reading an answer, would otherwise hold the stop until GRACE_MS cuts the process off
 * before the database is closed; past this its connection is closed, and the rest of the stop
 * (jobs, the database) has the remaining time.
 */
const DRAIN_MS = 5_000;

// SIGTERM/SIGINT: stop accepting, let in-flight requests finish, close the database, exit.
closeWithGrace({ delay: GRACE_MS }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, "fatal error, shutting down");
  else app.log.info({ signal }, "shutting down");
  const cut = setTimeout(() => app.server.closeAllConnections(), DRAIN_MS);
  cut.unref();
  await app.close();
  clearTimeout(cut);
});

await app.listen({ port: config.port, host: config.host });
// The address links and images are built on (PUBLIC_URL), and who else may call the API.
app.log.info(`Cartner is at ${config.publicUrl}`);
const others = config.allowedOrigins.filter((origin) => origin !== config.publicUrl);
if (others.length > 0) app.log.info(`Pages on ${others.join(", ")} may use the API too`);
