import closeWithGrace from "close-with-grace";
import { buildApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";

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

const app = await buildApp(config);

// SIGTERM/SIGINT: stop accepting, let in-flight requests finish, close the database, exit.
closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, "fatal error, shutting down");
  else app.log.info({ signal }, "shutting down");
  await app.close();
});

await app.listen({ port: config.port, host: config.host });
// The address links, images and the live socket's Origin check are built on (APP_ORIGIN).
app.log.info(`Cartner is at ${config.appOrigin}`);
