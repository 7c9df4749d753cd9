/**
 * "Notifications on this device" on the profile page, with the browser's Push API faked (the
 * server is the stubbed fetch): off, turned on (permission, subscribe with the server's key,
 * POST), on and turned off (DELETE, unsubscribe), blocked, and a browser without push.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { screen, within } from "@testing-library/react";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { makeProfile } from "./test-profile.ts";

// A VAPID key as the server gives it: 65 bytes, base64url.
const PUBLIC_KEY = `BP${"A".repeat(85)}`;
const keys = { p256dh: `B${"x".repeat(86)}`, auth: "y".repeat(22) };

/** The browser: its permission, the service worker's push manager and its subscription. */
function fakeBrowser(permission: NotificationPermission, subscribed: boolean, answer = permission) {
  let current: PushSubscription | null = null;
  const subscription = (endpoint: string) =>
    ({
      endpoint,
      toJSON: () => ({ endpoint, expirationTime: null, keys }),
      unsubscribe: vi.fn(async () => {
        current = null;
        return true;
      }),
    }) as unknown as PushSubscription;
  if (subscribed) current = subscription("https://push.example.com/device-1");
  const pushManager = {
    getSubscription: vi.fn(async () => current),
    subscribe: vi.fn(async () => {
      current = subscription("https://push.example.com/device-2");
      return current;
    }),
  };
  const registration = { pushManager } as unknown as ServiceWorkerRegistration;
  const notification = {
    permission,
    requestPermission: vi.fn(async () => {
      notification.permission = answer;
      return answer;
    }),
  };
  vi.stubGlobal("Notification", notification);
  vi.stubGlobal("PushManager", class {});
  Object.defineProperty(navigator, "serviceWorker", {
    configurable: true,
    value: { ready: Promise.resolve(registration), getRegistration: async () => registration },
  });
  return { pushManager, notification, current: () => current };
}

function serve() {
  signInAs();
  return stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    "GET /api/profile/me": () => json(200, makeProfile()),
    "GET /api/auth/devices": () => json(200, { devices: [] }),
    "GET /api/push/public-key": () => json(200, { publicKey: PUBLIC_KEY }),
    "POST /api/push/subscriptions": () => new Response(null, { status: 201 }),
    "DELETE /api/push/subscriptions": () => new Response(null, { status: 204 }),
  });
}

const card = async () => screen.findByRole("region", { name: "Notifications on this device" });

afterEach(() => {
  Reflect.deleteProperty(navigator, "serviceWorker");
  vi.unstubAllGlobals();
});

describe("notifications on this device", () => {
  it("asks the browser's permission, subscribes with the server's key and tells the server", async () => {
    const browser = fakeBrowser("default", false, "granted");
    const mock = serve();
    const { user } = renderApp("/profile");
    const region = await card();
    await user.click(await within(region).findByRole("button", { name: "Turn on" }));

    expect(await within(region).findByText("On for this device")).toBeInTheDocument();
    expect(browser.notification.requestPermission).toHaveBeenCalledOnce();
    const [options] = browser.pushManager.subscribe.mock.calls[0] as unknown as [
      PushSubscriptionOptionsInit,
    ];
    expect(options.userVisibleOnly).toBe(true);
    const key = options.applicationServerKey as Uint8Array;
    expect(key).toHaveLength(65);
    expect(key[0]).toBe(4);
    const posted = callsTo(mock, "POST /api/push/subscriptions");
    expect(posted.map((init) => JSON.parse(String(init.body)) as unknown)).toEqual([
      { endpoint: "https://push.example.com/device-2", keys },
    ]);
    expect(within(region).getByRole("button", { name: "Turn off" })).toBeInTheDocument();
  });

  it("when on, tells the server again for whoever is signed in, and turns off: DELETE, then unsubscribe", async () => {
    const browser = fakeBrowser("granted", true);
    const mock = serve();
    const { user } = renderApp("/profile");
    const region = await card();
    expect(await within(region).findByText("On for this device")).toBeInTheDocument();
    expect(callsTo(mock, "POST /api/push/subscriptions")).toHaveLength(1);

    await user.click(within(region).getByRole("button", { name: "Turn off" }));
    expect(await within(region).findByRole("button", { name: "Turn on" })).toBeInTheDocument();
    expect(
      callsTo(mock, "DELETE /api/push/subscriptions").map((init) => JSON.parse(String(init.body))),
    ).toEqual([{ endpoint: "https://push.example.com/device-1" }]);
    expect(browser.current()).toBeNull();
  });

  it("says where to allow notifications when the browser blocks them, with nothing to press", async () => {
    fakeBrowser("denied", false);
    serve();
    renderApp("/profile");
    const region = await card();
    expect(await within(region).findByText(/Blocked in the browser settings/)).toBeInTheDocument();
    expect(within(region).queryByRole("button")).toBeNull();
  });

  it("shows blocked when the person refuses the permission", async () => {
    const browser = fakeBrowser("default", false, "denied");
    const mock = serve();
    const { user } = renderApp("/profile");
    const region = await card();
    await user.click(await within(region).findByRole("button", { name: "Turn on" }));
    expect(await within(region).findByText(/Blocked in the browser settings/)).toBeInTheDocument();
    expect(browser.pushManager.subscribe).not.toHaveBeenCalled();
    expect(callsTo(mock, "POST /api/push/subscriptions")).toEqual([]);
  });

  it("says what to do, not the browser's words, when the browser refuses the subscription", async () => {
    const browser = fakeBrowser("default", false, "granted");
    browser.pushManager.subscribe.mockRejectedValueOnce(
      new DOMException("Registration failed - permission denied", "NotAllowedError"),
    );
    browser.pushManager.subscribe.mockRejectedValueOnce(
      new DOMException("Registration failed - push service error", "AbortError"),
    );
    const mock = serve();
    const { user } = renderApp("/profile");
    const region = await card();
    await user.click(await within(region).findByRole("button", { name: "Turn on" }));
    expect(
      await screen.findByText(
        "Notifications are blocked for this site. Allow them in your browser's site settings, then try again.",
      ),
    ).toBeVisible();
    await user.click(within(region).getByRole("button", { name: "Turn on" }));
    expect(
      await screen.findByText(
        "Your browser couldn't turn on notifications for this device. Try again later.",
      ),
    ).toBeVisible();
    expect(screen.queryByText(/Registration failed/)).toBeNull();
    expect(callsTo(mock, "POST /api/push/subscriptions")).toEqual([]);
    expect(within(region).getByRole("button", { name: "Turn on" })).toBeVisible();
  });

  it("says so in a browser without push", async () => {
    serve();
    renderApp("/profile");
    const region = await card();
    expect(
      await within(region).findByText(/This browser cannot show notifications/),
    ).toBeInTheDocument();
  });
});
