/**
 * Web Push (PGlite and PostgreSQL): the VAPID key, devices subscribing and unsubscribing, and
 * messages reaching a stand-in push service that checks the VAPID signature and decrypts them
 * (test/push-service.ts); a push service answering 410 removes the device.
 */
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pushSubscriptions } from "../../src/db/schema.ts";
import type { Notification } from "../../src/features/push/index.ts";
import type { HostResolver } from "../../src/lib/public-fetch.ts";
import { loadSecrets } from "../../src/lib/secrets.ts";
import { client, createTestApp, PASSWORD, signUp, type TestApp } from "../helpers.ts";
import { startPushService } from "../push-service.ts";

/** The names the app looked up to send, in order. */
const lookedUp: string[] = [];
/**
 * A DNS as hostile as the internet's: nip.io and sslip.io names lead to the address they spell,
 * every other name to this machine. Nothing here resolves through a real DNS.
 */
const hostileDns: HostResolver = async (name) => {
  lookedUp.push(name);
  const spelled = /^(\d+\.\d+\.\d+\.\d+)\.(nip|sslip)\.io$/.exec(name)?.[1];
  return [{ address: spelled ?? "127.0.0.1", family: 4 }];
};

let t: TestApp;
let push: Awaited<ReturnType<typeof startPushService>>;
beforeAll(async () => {
  push = await startPushService();
  t = await createTestApp({ env: { PUSH_SERVICE_ORIGINS: push.origin }, resolveHost: hostileDns });
});
afterAll(async () => {
  await t?.close();
  await push?.close();
});

const b64 = (bytes: number) => crypto.randomBytes(bytes).toString("base64url");
/** A subscription as a browser's push service would give it (never posted to). */
const fakeSubscription = (host = "push.example.com") => ({
  endpoint: `https://${host}/send/${crypto.randomUUID()}`,
  expirationTime: null,
  keys: { p256dh: `B${b64(64)}`.slice(0, 87), auth: b64(16) },
});
const devicesOf = (userId: string) =>
  t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));

/** A device subscribed at the local push service (PUSH_SERVICE_ORIGINS), as a browser would. */
async function subscribedTo(app: TestApp, token: string) {
  const { publicKey } = (
    await app.app.inject({ method: "GET", url: "/api/push/public-key" })
  ).json();
  const subscription = await push.subscribe(publicKey);
  const { clientHash: _hash, ...json } = subscription;
  const res = await client(app, token)("POST", "/api/push/subscriptions", json);
  expect(res.statusCode, res.body).toBe(201);
  return subscription;
}

function notification(overrides: Partial<Notification> = {}): Notification {
  return {
    _id: crypto.randomUUID(),
    kind: "reminder",
    sessionId: crypto.randomUUID(),
    title: "Weekend groceries closes in an hour",
    body: "Add what you still need before 18:00.",
    url: "/cart/abc",
    createdAt: new Date().toISOString(),
    readAt: null,
    approval: null,
    ...overrides,
  };
}

describe("the VAPID public key", () => {
  it("is public, a P-256 point in base64url, the same on every call", async () => {
    const first = await t.app.inject({ method: "GET", url: "/api/push/public-key" });
    expect(first.statusCode).toBe(200);
    const { publicKey } = first.json();
    expect(publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(Buffer.from(publicKey, "base64url")[0]).toBe(4);
    const again = await t.app.inject({ method: "GET", url: "/api/push/public-key" });
    expect(again.json().publicKey).toBe(publicKey);
  });

  it("follows the server secret (the same on every instance and restart), unless VAPID_* set it", async () => {
    const a = await loadSecrets("s".repeat(40), "memory://");
    const b = await loadSecrets("s".repeat(40), "memory://");
    const c = await loadSecrets("t".repeat(40), "memory://");
    expect(a.vapid).toEqual(b.vapid);
    expect(a.vapid.publicKey).not.toBe(c.vapid.publicKey);
    // The pair is a real one: a signature by the private key verifies with the public key.
    const key = crypto.createPrivateKey({
      format: "jwk",
      key: {
        kty: "EC",
        crv: "P-256",
        d: a.vapid.privateKey,
        x: Buffer.from(a.vapid.publicKey, "base64url").subarray(1, 33).toString("base64url"),
        y: Buffer.from(a.vapid.publicKey, "base64url").subarray(33).toString("base64url"),
      },
    });
    const signature = crypto.sign("sha256", Buffer.from("hi"), key);
    expect(crypto.verify("sha256", Buffer.from("hi"), crypto.createPublicKey(key), signature)).toBe(
      true,
    );

    const keys = { publicKey: c.vapid.publicKey, privateKey: c.vapid.privateKey };
    const configured = await createTestApp({
      env: { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey },
    });
    try {
      const res = await configured.app.inject({ method: "GET", url: "/api/push/public-key" });
      expect(res.json().publicKey).toBe(keys.publicKey);
    } finally {
      await configured.close();
    }
  });
});

describe("subscriptions", () => {
  it("needs a signed-in user", async () => {
    const post = await t.app.inject({
      method: "POST",
      url: "/api/push/subscriptions",
      payload: fakeSubscription(),
    });
    expect(post.statusCode).toBe(401);
    const del = await t.app.inject({
      method: "DELETE",
      url: "/api/push/subscriptions",
      payload: { endpoint: "https://push.example.com/x" },
    });
    expect(del.statusCode).toBe(401);
  });

  it("refuses a bad subscription with 400 naming the field, and keeps nothing", async () => {
    const ann = await signUp(t, "Ann");
    const as = client(t, ann.token);
    const good = fakeSubscription();
    const rows: [string, object, string][] = [
      ["no endpoint", { keys: good.keys }, "endpoint"],
      ["an endpoint that is not a URL", { ...good, endpoint: "push me" }, "endpoint"],
      ["a plain http endpoint", { ...good, endpoint: "http://push.example.com/x" }, "endpoint"],
      ["a local endpoint", { ...good, endpoint: "https://localhost/x" }, "endpoint"],
      ["an IP address", { ...good, endpoint: "https://10.0.0.8/x" }, "endpoint"],
      ["an internal host", { ...good, endpoint: "https://push.internal/x" }, "endpoint"],
      ["a cluster service", { ...good, endpoint: "https://kubernetes.default.svc/x" }, "endpoint"],
      ["a port not 443", { ...good, endpoint: "https://10.0.0.1.sslip.io:5432/x" }, "endpoint"],
      ["another port", { ...good, endpoint: "https://push.example.com:8443/x" }, "endpoint"],
      ["a metadata address", { ...good, endpoint: "https://169.254.169.254/x" }, "endpoint"],
      ["no keys", { endpoint: good.endpoint }, "keys"],
      ["a short p256dh", { ...good, keys: { ...good.keys, p256dh: b64(32) } }, "keys.p256dh"],
      ["an auth of 17 bytes", { ...good, keys: { ...good.keys, auth: b64(17) } }, "keys.auth"],
      ["an unknown field", { ...good, owner: "someone" }, "owner"],
    ];
    for (const [label, body, field] of rows) {
      const res = await as("POST", "/api/push/subscriptions", body);
      expect(res.statusCode, label).toBe(400);
      expect(Object.keys(res.json().fields ?? {}), label).toContain(field);
    }
    const port = await as("POST", "/api/push/subscriptions", {
      ...good,
      endpoint: "https://10.0.0.1.sslip.io:5432/x",
    });
    expect(port.json().fields).toEqual({ endpoint: "endpoint must use the standard port (443)" });
    const del = await as("DELETE", "/api/push/subscriptions", {});
    expect(del.statusCode).toBe(400);
    expect(Object.keys(del.json().fields)).toContain("endpoint");
    expect(await devicesOf(ann.userId)).toEqual([]);
  });

  it("keeps a device per endpoint: the same endpoint again updates its owner and keys; one removes only their own", async () => {
    const ann = await signUp(t, "Ann");
    const ben = await signUp(t, "Ben");
    const device = fakeSubscription();
    expect((await client(t, ann.token)("POST", "/api/push/subscriptions", device)).statusCode).toBe(
      201,
    );
    const [row] = await devicesOf(ann.userId);
    expect(row).toMatchObject({ endpoint: device.endpoint, p256dh: device.keys.p256dh });

    // Ben removing Ann's endpoint changes nothing.
    const foreign = await client(t, ben.token)("DELETE", "/api/push/subscriptions", {
      endpoint: device.endpoint,
    });
    expect(foreign.statusCode).toBe(204);
    expect(await devicesOf(ann.userId)).toHaveLength(1);

    // Ben signs in on the same browser: the device is his now, with its new keys.
    const renewed = { ...device, keys: fakeSubscription().keys };
    expect(
      (await client(t, ben.token)("POST", "/api/push/subscriptions", renewed)).statusCode,
    ).toBe(201);
    expect(await devicesOf(ann.userId)).toEqual([]);
    expect(await devicesOf(ben.userId)).toMatchObject([
      { endpoint: device.endpoint, p256dh: renewed.keys.p256dh, auth: renewed.keys.auth },
    ]);

    const own = await client(t, ben.token)("DELETE", "/api/push/subscriptions", {
      endpoint: device.endpoint,
    });
    expect(own.statusCode).toBe(204);
    expect(await devicesOf(ben.userId)).toEqual([]);
  });

  it("goes with the account", async () => {
    const cas = await signUp(t, "Cas");
    const as = client(t, cas.token);
    expect((await as("POST", "/api/push/subscriptions", fakeSubscription())).statusCode).toBe(201);
    const deleted = await as("DELETE", "/api/users/me", { password: PASSWORD });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await devicesOf(cas.userId)).toEqual([]);
  });
});

describe("delivery", () => {
  const subscribedDevice = (token: string) => subscribedTo(t, token);

  it("sends every device of the person the notification, signed and encrypted to it", async () => {
    const dee = await signUp(t, "Dee");
    const phone = await subscribedDevice(dee.token);
    const laptop = await subscribedDevice(dee.token);
    const other = await signUp(t, "Eve");
    const eves = await subscribedDevice(other.token);

    const notice = notification();
    await t.app.channels.push.deliver({
      user: { id: dee.userId, name: "Dee", email: dee.email },
      notification: notice,
    });
    await t.app.idle();

    const expected = {
      title: notice.title,
      body: notice.body,
      url: "/cart/abc",
      tag: `reminder:${notice.sessionId}`,
    };
    // The stand-in decrypted each body with that device's own private key.
    for (const device of [phone, laptop]) {
      expect(push.messages(device).map((m) => JSON.parse(m) as unknown)).toEqual([expected]);
    }
    expect(push.messages(eves)).toEqual([]);
    const rows = await devicesOf(dee.userId);
    expect(rows.map((r) => r.lastSuccessAt)).toEqual([expect.any(Date), expect.any(Date)]);
  });

  it("removes a device whose push service answers 410, and keeps the others", async () => {
    const fay = await signUp(t, "Fay");
    const gone = await subscribedDevice(fay.token);
    const kept = await subscribedDevice(fay.token);
    push.expire(gone);
    await t.app.channels.push.deliver({
      user: { id: fay.userId, name: "Fay", email: fay.email },
      notification: notification({ kind: "payment", url: "https://evil.example/x" }),
    });
    await t.app.idle();
    expect((await devicesOf(fay.userId)).map((r) => r.endpoint)).toEqual([kept.endpoint]);
    // A link that is not an app path opens the app's start instead.
    expect(JSON.parse(push.messages(kept)[0]!)).toMatchObject({ url: "/" });
  });
});

describe("endpoints that lead inside the server's network", () => {
  it("are refused when the message is sent, though the URL passed at subscription: the device goes", async () => {
    const hal = await signUp(t, "Hal");
    const as = client(t, hal.token);
    const endpoints = [
      // Names that spell an internal address (wildcard DNS services).
      "https://127.0.0.1.nip.io/x",
      "https://169.254.169.254.nip.io/latest/meta-data/",
      "https://10.0.0.1.sslip.io/x",
      // An ordinary-looking name whose DNS answer is this machine (127.0.0.1).
      "https://push.example.com/send/rebound",
    ];
    const { publicKey } = (await as("GET", "/api/push/public-key")).json();
    for (const endpoint of endpoints) {
      // Keys a browser would give, so the message is encrypted and ready to go.
      const { keys } = await push.subscribe(publicKey);
      const res = await as("POST", "/api/push/subscriptions", { endpoint, keys });
      expect(res.statusCode, endpoint).toBe(201);
    }
    const trusted = await subscribedTo(t, hal.token);
    lookedUp.length = 0;

    await t.app.channels.push.deliver({
      user: { id: hal.userId, name: "Hal", email: hal.email },
      notification: notification(),
    });
    await t.app.idle();

    // Each name was looked up once, as its connection opened, and refused there: nothing was
    // sent to it, and it is not tried again. The local push service (PUSH_SERVICE_ORIGINS) still
    // got its message.
    expect(lookedUp.toSorted()).toEqual(endpoints.map((e) => new URL(e).hostname).toSorted());
    expect((await devicesOf(hal.userId)).map((r) => r.endpoint)).toEqual([trusted.endpoint]);
    expect(push.messages(trusted)).toHaveLength(1);
  });
});
