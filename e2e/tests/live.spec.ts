import crypto from "node:crypto";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { apiCall, sharedSession, signedInPerson, type SignedIn } from "./fixtures.ts";

const OFFLINE_MESSAGE = "Offline – reconnecting…";
/** SESSION_SYNC_INTERVAL_MS: the fallback poll's period. */
const SYNC_INTERVAL_MS = 5_000;

interface LiveMessage {
  type: string;
  sessionId?: string;
}

/** What a page received on its live sockets, and when it called the polled sync route. */
interface Watch {
  messages: LiveMessage[];
  syncRequests: number[];
  problems: string[];
}

function watch(page: Page): Watch {
  const seen: Watch = { messages: [], syncRequests: [], problems: [] };
  page.on("websocket", (socket) => {
    if (!socket.url().endsWith("/api/live")) return;
    socket.on("framereceived", ({ payload }) => {
      seen.messages.push(JSON.parse(String(payload)) as LiveMessage);
    });
  });
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/sessions/sync")
      seen.syncRequests.push(Date.now());
  });
  page.on("pageerror", (error) => seen.problems.push(error.message));
  page.on("response", (response) => {
    if (response.status() >= 500) seen.problems.push(`${response.status()} ${response.url()}`);
  });
  return seen;
}

type Person = SignedIn & Watch;

/** Someone signed up and signed in, in their own browser context, watched from the start. */
const person = (browser: Browser, name: string): Promise<Person> =>
  signedInPerson(browser, name, watch);

/** Opens a page and waits until its new live socket is ready. */
async function openLive(who: Person, path: string) {
  const before = who.messages.length;
  await who.page.goto(path);
  await expect
    .poll(() => who.messages.slice(before).some((message) => message.type === "ready"))
    .toBe(true);
}

function received(who: Person, type: string, sessionId: string): boolean {
  return who.messages.some((m) => m.type === type && m.sessionId === sessionId);
}

/** The offline pill is not there, though its live region is (the client runs and is up). */
async function expectOnline(page: Page) {
  await expect(page.getByRole("banner").getByRole("status")).toHaveText("");
  await expect(page.getByText(OFFLINE_MESSAGE)).toHaveCount(0);
}

test("changes arrive over the socket: a cart line within a second, the end of a session", async ({
  browser,
}) => {
  const [ann, ben] = await Promise.all([person(browser, "Ann"), person(browser, "Ben")]);
  const sessionName = `Live ${crypto.randomBytes(3).toString("hex")}`;
  const passcode = "sesame-42";
  const session = await sharedSession(ann, [ben], sessionName, { passcode });
  const { products } = await apiCall<{
    products: Array<{ _id: string; name: string; stock: number }>;
  }>(ann, "GET", "/api/products");
  const product = products.find((p) => p.stock >= 5)!;

  // Ann has the session's cart open, empty, with her socket up.
  await openLive(ann, `/cart/${session._id}`);
  const annCart = ann.page.getByRole("region", { name: sessionName, exact: true });
  await expect(annCart.getByText("This cart is empty.")).toBeVisible();

  // While the socket is up the 5 s poll is off: no sync request for longer than its period
  // (after the one refetch that follows ready).
  await ann.page.waitForTimeout(1_000);
  const quietFrom = Date.now();
  await ann.page.waitForTimeout(SYNC_INTERVAL_MS + 1_000);
  expect(ann.syncRequests.filter((at) => at >= quietFrom)).toEqual([]);
  await expectOnline(ann.page);

  // Ben adds: Ann's open cart shows his line within a second of his answer, without a reload.
  await apiCall(ben, "POST", `/api/carts/${session.cartId}/product`, { productId: product._id });
  await expect(annCart.getByText(`Added by ${ben.user.name} on`)).toBeVisible({ timeout: 1_000 });
  await expect(annCart.getByText(product.name).first()).toBeVisible();
  expect(received(ann, "cart.updated", session._id)).toBe(true);

  // Ben watches the lobby; Ann ends the session from hers: Ben's says Ended without a reload.
  await openLive(ben, `/session/${session._id}`);
  await expect(ben.page.getByRole("heading", { level: 1, name: sessionName })).toBeVisible();
  await expect(ben.page.getByText("Active", { exact: true })).toBeVisible();
  await ann.page.goto(`/session/${session._id}`);
  await ann.page.getByRole("button", { name: "End Session" }).click();
  const ended = ann.page.waitForResponse(
    (r) => r.request().method() === "PUT" && r.url().endsWith(`/api/sessions/${session._id}/end`),
  );
  await ann.page
    .getByRole("dialog", { name: `End “${sessionName}”?` })
    .getByRole("button", { name: "End Session" })
    .click();
  expect((await ended).ok()).toBe(true);
  await expect(ben.page.getByText("Ended", { exact: true })).toBeVisible({ timeout: 2_000 });
  expect(received(ben, "session.ended", session._id)).toBe(true);
  await expectOnline(ben.page);

  for (const who of [ann, ben]) {
    expect(who.problems, who.user.name).toEqual([]);
    await who.context.close();
  }
});

test("without the socket the page says so at 360 px without moving, polls, and reconnects", async ({
  browser,
}) => {
  const ann = await person(browser, "Ann");
  await ann.page.setViewportSize({ width: 360, height: 780 });
  // Every live socket goes through here: passed to the server, or refused like a dead network.
  let refuse = false;
  const open: Array<{ close: (options: { code: number }) => Promise<void> }> = [];
  await ann.context.routeWebSocket(/\/api\/live$/, (socket) => {
    if (refuse) {
      void socket.close({ code: 1012 });
      return;
    }
    socket.connectToServer();
    open.push(socket);
  });

  await openLive(ann, "/sessions");
  await expectOnline(ann.page);
  const mainTop = (await ann.page.getByRole("main").boundingBox())!.y;

  // The connection drops and cannot come back: after the grace period the pill shows.
  refuse = true;
  const downFrom = Date.now();
  await Promise.all(open.splice(0).map((socket) => socket.close({ code: 1012 })));
  const pill = ann.page.getByRole("banner").getByRole("status");
  await expect(pill).toHaveText(OFFLINE_MESSAGE, { timeout: 4_000 });
  expect((await ann.page.getByRole("main").boundingBox())!.y).toBe(mainTop);

  // Meanwhile the 5 s sync keeps the page current.
  await expect
    .poll(() => ann.syncRequests.filter((at) => at >= downFrom + 1_000).length, {
      timeout: SYNC_INTERVAL_MS * 2,
    })
    .toBeGreaterThan(0);

  // The network is back: the client's next try gets through and the pill goes.
  refuse = false;
  await expect(pill).toHaveText("", { timeout: 20_000 });
  await expect(ann.page.getByText(OFFLINE_MESSAGE)).toHaveCount(0);

  expect(ann.problems).toEqual([]);
  await ann.context.close();
});
