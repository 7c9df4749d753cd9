import type { Db } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";

/** What the push subscription functions need, built once in src/services.ts. */
export interface PushDeps {
  db: Db;
  clock: Clock;
  /** PUSH_SERVICE_ORIGINS: push services whose endpoints may be http or local. */
  serviceOrigins: string[];
}
