/** What the payments functions need: built once in src/services.ts and passed to each call. */
import type { Db } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";

export interface PaymentDeps {
  db: Db;
  clock: Clock;
  /** The deployment's currency (CURRENCY): `GET /api/config`, and the EPC QR only in EUR. */
  currency: string;
}
