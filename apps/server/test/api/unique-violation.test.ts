import { afterAll, beforeAll, expect, it } from "vitest";
import { users } from "../../src/db/schema.ts";
import { isUniqueViolation } from "../../src/lib/errors.ts";
import { freshDatabase, uniqueEmail } from "../helpers.ts";
import type { Database } from "../../src/db/client.ts";

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => database.close());

it("tells a unique violation by the driver's code and constraint, through Drizzle's wrapping", async () => {
  const email = uniqueEmail("twice");
  const row = { name: "Ann", email, passwordHash: "x" };
  await database.db.insert(users).values(row);
  const error = await database.db
    .insert(users)
    .values(row)
    .then(() => null)
    .catch((e: unknown) => e);
  expect(error).not.toBeNull();
  expect(isUniqueViolation(error)).toBe(true);
  expect(isUniqueViolation(error, "users_email_unique")).toBe(true);
  expect(isUniqueViolation(error, "sessions_code_unique")).toBe(false);
  // Another failure is not one.
  const other = await database.db
    .execute("select 1/0")
    .then(() => null)
    .catch((e: unknown) => e);
  expect(isUniqueViolation(other)).toBe(false);
});
