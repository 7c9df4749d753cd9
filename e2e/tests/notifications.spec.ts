import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { BASE_URL } from "../playwright.config.ts";
import { apiCall, person, sharedSession, type Person, type Product } from "./fixtures.ts";

const unreadOf = async (who: Person) =>
  (await apiCall<{ unread: number }>(who, "GET", "/api/notifications")).unread;

test("Ben allows notifications; a change by another member rings the bell, links to the cart, and stops when turned off @phone", async ({
  browser,
}) => {
  const [ann, ben] = await Promise.all([person(browser, "Ann"), person(browser, "Ben")]);
  const sessionName = `Bell ${crypto.randomBytes(3).toString("hex")}`;
  const session = await sharedSession(ann, [ben], sessionName);
  const { products } = await apiCall<{ products: Product[] }>(ann, "GET", "/api/products");
  const [wine, milk] = products.filter((p) => p.stock >= 5);

  // Ben was told he is in; he has read that.
  await expect.poll(() => unreadOf(ben)).toBe(1);
  await apiCall(ben, "POST", "/api/notifications/read", { all: true });

  // Ben allows notifications on this device. The browser's push service is out of reach here (no
  // internet), so its subscription stands in: a real P-256 key, on a push service's public host.
  await ben.context.grantPermissions(["notifications"], { origin: BASE_URL });
  const { publicKey } = crypto.generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const device = {
    endpoint: `https://fcm.googleapis.com/fcm/send/e2e-${crypto.randomBytes(8).toString("hex")}`,
    p256dh: Buffer.from(publicKey.export({ format: "der", type: "spki" }).subarray(-65)).toString(
      "base64url",
    ),
    auth: crypto.randomBytes(16).toString("base64url"),
  };
  await ben.page.addInitScript((d) => {
    let current: PushSubscription | null = null;
    const subscription = {
      endpoint: d.endpoint,
      toJSON: () => ({ endpoint: d.endpoint, keys: { p256dh: d.p256dh, auth: d.auth } }),
      unsubscribe: async () => ((current = null), true),
    } as unknown as PushSubscription;
    PushManager.prototype.subscribe = async () => (current = subscription);
    PushManager.prototype.getSubscription = async () => current;
  }, device);
  await ben.page.goto("/notifications");
  const thisDevice = ben.page.getByRole("region", { name: "Notifications on this device" });
  // Subscribing waits for the service worker, which first stores the app for offline use: on a
  // busy machine that alone can take longer than an assertion waits.
  await ben.page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await thisDevice.getByRole("button", { name: "Turn on" }).click();
  await expect(thisDevice.getByText("On for this device")).toBeVisible();
  const exported = await apiCall<{ pushDevices: { endpoint: string }[] }>(
    ben,
    "GET",
    "/api/users/me/export",
  );
  expect(exported.pushDevices.map((d) => d.endpoint)).toEqual([device.endpoint]);

  await ben.page.goto("/sessions");
  const bell = ben.page.getByRole("button", { name: /^Notifications, / });
  await expect(bell).toHaveAccessibleName("Notifications, none unread");

  await apiCall(ann, "POST", `/api/carts/${session.cartId}/product`, {
    productId: wine!._id,
    quantity: 1,
  });
  await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
  await expect(bell).toContainText("1");

  await bell.click();
  const panel = ben.page.getByRole("dialog", { name: "Notifications" });
  const item = panel.getByRole("link", { name: new RegExp(`Ann added ${wine!.name}`) });
  await expect(item).toContainText(`Ann added ${wine!.name} to ${sessionName}`);
  await item.click();
  await expect(ben.page).toHaveURL(new RegExp(`/cart/${session._id}$`));
  const cart = ben.page.getByRole("region", { name: sessionName, exact: true });
  await expect(cart.getByText(wine!.name).first()).toBeVisible();
  await expect(bell).toHaveAccessibleName("Notifications, none unread");

  // Ben turns changes by others off in the app.
  await ben.page.goto("/notifications");
  const settings = ben.page.getByRole("region", { name: "Notification settings" });
  const changesInApp = settings.getByRole("checkbox", { name: "Changes by others: In app" });
  await expect(changesInApp).toBeChecked();
  await changesInApp.uncheck();
  await settings.getByRole("button", { name: "Save" }).click();
  await expect(ben.page.getByText("Notification settings saved.")).toBeVisible();

  // Ann adds another line: Ben's cart shows it live, and no notification comes.
  await ben.page.goto(`/cart/${session._id}`);
  await apiCall(ann, "POST", `/api/carts/${session.cartId}/product`, {
    productId: milk!._id,
    quantity: 1,
  });
  await expect(cart.getByText(milk!.name).first()).toBeVisible();
  await ben.page.waitForTimeout(1_000);
  expect(await unreadOf(ben)).toBe(0);
  await expect(bell).toHaveAccessibleName("Notifications, none unread");
  await bell.click();
  await expect(panel.getByRole("listitem")).toHaveCount(2); // the first change and the welcome

  expect(ann.problems).toEqual([]);
  expect(ben.problems).toEqual([]);
});
