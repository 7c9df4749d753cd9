/**
 * A stand-in push service for tests: web-push-testing's server, run in this process. It hands out
 * subscriptions (a P-256 key pair and an auth secret of its own, like a browser), checks each
 * message's VAPID signature against the subscription's application server key, decrypts its
 * aes128gcm body with the subscription's private key, and keeps the plain text; an expired
 * subscription answers 410.
 */
import { createRequire } from "node:module";
import net from "node:net";

interface Subscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  clientHash: string;
}
interface Model {
  subscribe(options: {
    applicationServerKey: string;
    userVisibleOnly: string;
  }): Promise<Subscription>;
  expireSubscription(clientHash: string): void;
  getNotifications(body: { clientHash: string }): { messages: string[] };
}
interface Server {
  startServer(): void;
  _server: net.Server;
}

const require = createRequire(import.meta.url);
const TestingServer = require("web-push-testing/src/server.js") as new (
  model: Model,
  port: number,
) => Server;
const { PushApiModel } = require("web-push-testing/src/PushApiModel.js") as {
  PushApiModel: new () => Model;
};

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export async function startPushService() {
  const port = await freePort();
  const model = new PushApiModel();
  const server = new TestingServer(model, port);
  // It says "Server running on port …" with console.log, which tests keep quiet.
  const quiet = console as { log: (...args: unknown[]) => void };
  const log = quiet.log;
  quiet.log = () => {};
  try {
    server.startServer();
    await new Promise<void>((resolve) => {
      if (server._server.listening) resolve();
      else server._server.once("listening", () => resolve());
    });
    // Its own listen callback logs after the event.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    quiet.log = log;
  }
  return {
    /** PUSH_SERVICE_ORIGINS for the app: its endpoints are http://localhost:<port>/notify/…. */
    origin: `http://localhost:${port}`,
    /** A browser's pushManager.subscribe() with the app's VAPID public key. */
    subscribe: (applicationServerKey: string) =>
      model.subscribe({ applicationServerKey, userVisibleOnly: "true" }),
    /** The decrypted messages this subscription received, oldest first. */
    messages: (subscription: Subscription) =>
      model.getNotifications({ clientHash: subscription.clientHash }).messages,
    /** The browser unsubscribed: the service answers 410 from now on. */
    expire: (subscription: Subscription) => model.expireSubscription(subscription.clientHash),
    close: () => new Promise<void>((resolve) => server._server.close(() => resolve())),
  };
}
