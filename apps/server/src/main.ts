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

// SIGTERM/SIGINT: stop accepting, let in-flight requests finish (a connection with none being
// answered is closed after a short drain: plugins/shutdown.ts), close the database, exit. Past
// the 10 s the process exits at once, with 1.
closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, "fatal error, shutting down");
  else app.log.info({ signal }, "shutting down");
  await app.close();
});

await app.listen({ port: config.port, host: config.host });
// The address links and images are built on (PUBLIC_URL), and who else may call the API.
app.log.info(`Cartner is at ${config.publicUrl}`);
const others = config.allowedOrigins.filter((origin) => origin !== config.publicUrl);
if (others.length > 0) app.log.info(`Pages on ${others.join(", ")} may use the API too`);
