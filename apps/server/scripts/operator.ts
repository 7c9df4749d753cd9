/**
 * `npm run operator -- grant EMAIL` gives an account the operator role (the Catalog page and its
 * calls); `npm run operator -- revoke EMAIL` takes it away. Works on the database the server's
 * configuration names; on PostgreSQL while servers run. Exit 1 with a message for an unknown
 * email or a wrong command.
 */
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/client.ts";
import { setAccountRole } from "../src/features/catalog/operators.ts";
import { embeddedInUse } from "./embedded-in-use.ts";

const USAGE = "Usage: npm run operator -- grant EMAIL | npm run operator -- revoke EMAIL";

const [command, email, ...rest] = process.argv.slice(2);
if ((command !== "grant" && command !== "revoke") || !email || rest.length > 0) fail(USAGE);

const config = loadConfig();
if (!config.databaseUrl) {
  const refusal = await embeddedInUse(config.dataDir, "Changing a role");
  if (refusal) fail(refusal);
}
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  const grant = command === "grant";
  const result = await setAccountRole(
    { db: database.db, notifyServers: database.kind === "postgres" },
    { email, role: "operator", grant },
  );
  if (!result.found) {
    console.error(`No account with the email ${email}; nothing was changed.`);
    process.exitCode = 1;
  } else if (!result.changed) {
    console.info(
      `${result.name} <${result.email}> ${grant ? "is an operator already" : "is not an operator"}; nothing was changed.`,
    );
  } else {
    console.info(
      grant
        ? `${result.name} <${result.email}> is now an operator: the Catalog page is theirs at their next page load.`
        : `${result.name} <${result.email}> is no longer an operator.`,
    );
  }
} finally {
  await database.close();
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
