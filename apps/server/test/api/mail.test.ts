import net from "node:net";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { otpCodes, users } from "../../src/db/schema.ts";
import { createTestApp, PASSWORD, uniqueEmail, type TestApp } from "../helpers.ts";

let t: TestApp;
beforeAll(async () => {
  // A port nothing listens on: the SMTP server is down.
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise((r) => probe.close(r));
  t = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
});
afterAll(async () => t.close());

it("says clearly that the code could not be sent, and lets the user try again at once", async () => {
  const email = uniqueEmail("smtp");
  const first = await t.app.inject({
    method: "POST",
    url: "/api/auth/register",
    payload: { name: "Ann", email, password: PASSWORD },
  });
  expect(first.statusCode).toBe(503);
  expect(first.json()).toMatchObject({
    code: "MAIL_FAILED",
    message: expect.stringMatching(/could not send/),
  });
  const [user] = await t.database.db.select().from(users).where(eq(users.email, email));
  const [codes] = await t.database.db
    .select({ n: count() })
    .from(otpCodes)
    .where(eq(otpCodes.userId, user!.id));
  expect(codes!.n).toBe(0);

  // No 60 s wait was started by the failed send: retrying reaches the mail server again.
  const retry = await t.app.inject({
    method: "POST",
    url: "/api/auth/register",
    payload: { name: "Ann", email, password: PASSWORD },
  });
  expect(retry.statusCode).toBe(503);
});

it("has no dev mailbox when SMTP is configured", async () => {
  expect((await t.app.inject({ method: "GET", url: "/dev/mailbox" })).statusCode).toBe(404);
});

it("has no dev mailbox in production", async () => {
  const prod = await createTestApp({
    env: { NODE_ENV: "production", JWT_SECRET: "p".repeat(40), SMTP_URL: "smtp://127.0.0.1:1" },
  });
  expect((await prod.app.inject({ method: "GET", url: "/dev/mailbox" })).statusCode).toBe(404);
  await prod.close();
});
