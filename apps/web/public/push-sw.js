/**
 * Web Push in the service worker (imported by the generated /sw.js: vite.config.ts). A push holds
 * JSON { title, body, url, tag } (the server's PushPayload); it is shown as a notification, and a
 * click focuses an open tab of the app and takes it to the url, else opens the url.
 */
self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { body: event.data ? event.data.text() : "" };
  }
  const title = typeof message.title === "string" && message.title ? message.title : "Cartner";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof message.body === "string" ? message.body : "",
      tag: typeof message.tag === "string" ? message.tag : undefined,
      data: { url: typeof message.url === "string" ? message.url : "/" },
      icon: "/pwa-192x192.png",
      badge: "/pwa-64x64.png",
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const path = event.notification.data && event.notification.data.url;
  // Only a path of this app: a notification never opens another site.
  const target = new URL(
    typeof path === "string" && path.startsWith("/") && !path.startsWith("//") ? path : "/",
    self.location.origin,
  ).href;
  event.waitUntil(
    (async () => {
      const tabs = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const tab = tabs.find((client) => new URL(client.url).origin === self.location.origin);
      if (tab) {
        await tab.focus();
        if ("navigate" in tab) await tab.navigate(target);
        return;
      }
      await self.clients.openWindow(target);
    })(),
  );
});
