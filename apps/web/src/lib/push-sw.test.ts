/**
 * The service worker's push handlers (public/push-sw.js), run against a stand-in for the worker's
 * global: a push is shown with its words and link, and a click on it opens that page of the app
 * (in an open tab if there is one), never another site.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";

const source = readFileSync(path.resolve(import.meta.dirname, "../../public/push-sw.js"), "utf8");
const ORIGIN = "https://cartner.example";

type Handler = (event: Record<string, unknown>) => void;

function worker(tabs: { url: string }[] = []) {
  const handlers = new Map<string, Handler>();
  const shown: { title: string; options: Record<string, unknown> }[] = [];
  const windows = tabs.map((tab) => ({
    url: tab.url,
    focus: vi.fn(async () => {}),
    navigate: vi.fn(async (_url: string) => {}),
  }));
  const self = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, handler: Handler) => handlers.set(type, handler),
    registration: {
      showNotification: async (title: string, options: Record<string, unknown>) => {
        shown.push({ title, options });
      },
    },
    clients: {
      matchAll: async () => windows,
      openWindow: vi.fn(async (_url: string) => {}),
    },
  };
  new Function("self", source)(self);
  /** Dispatches an event and waits for what it asked to wait for. */
  const dispatch = async (type: string, event: Record<string, unknown>) => {
    let done: Promise<unknown> = Promise.resolve();
    handlers.get(type)!({ ...event, waitUntil: (p: Promise<unknown>) => (done = p) });
    await done;
  };
  const click = (url: unknown) =>
    dispatch("notificationclick", { notification: { data: { url }, close: vi.fn() } });
  return { dispatch, click, shown, windows, openWindow: self.clients.openWindow };
}

describe("the service worker's push", () => {
  it("shows the push's title, body and tag, keeping its link", async () => {
    const sw = worker();
    const push = {
      title: "Changes in Weekly shop",
      body: "Ann added Milk",
      url: "/cart/s1",
      tag: "t",
    };
    await sw.dispatch("push", { data: { json: () => push, text: () => "" } });
    expect(sw.shown).toEqual([
      {
        title: push.title,
        options: expect.objectContaining({ body: push.body, tag: "t", data: { url: "/cart/s1" } }),
      },
    ]);
  });

  it("on a click, takes an open tab of the app to the page", async () => {
    const sw = worker([{ url: `${ORIGIN}/products` }]);
    await sw.click("/cart/s1");
    expect(sw.windows[0]!.focus).toHaveBeenCalled();
    expect(sw.windows[0]!.navigate).toHaveBeenCalledWith(`${ORIGIN}/cart/s1`);
    expect(sw.openWindow).not.toHaveBeenCalled();
  });

  it("on a click with no tab open, opens the page", async () => {
    const sw = worker();
    await sw.click("/orders/o1");
    expect(sw.openWindow).toHaveBeenCalledWith(`${ORIGIN}/orders/o1`);
  });

  it("never opens another site: a link that is not a path of the app opens the home page", async () => {
    for (const url of ["https://evil.example/", "//evil.example/x", 42]) {
      const sw = worker();
      await sw.click(url);
      expect(sw.openWindow).toHaveBeenCalledWith(`${ORIGIN}/`);
    }
  });
});
