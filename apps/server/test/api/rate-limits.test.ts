/**
 * The API's rate limits (plugins/rate-limit.ts) as people meet them. A household of six behind
 * one address uses the app for five minutes at the default limits and never sees 429; what the
 * limits are for still holds: one client flooding a route, forged tokens and many accounts behind
 * one address are refused. The limiter counts in windows of the app's clock, which the tests move
 * (TestClock), so five minutes take seconds.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, signUp, type TestApp } from "../helpers.ts";
import { listenForLive, signedIn, type Peer } from "../live-peers.ts";

// Minutes of a household's traffic, sent as fast as the machine goes: slow on a busy one.
vi.setConfig({ testTimeout: 90_000 });

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** A built web app as `npm run build` lays it out: pages, fingerprinted scripts, styles, fonts. */
const WEB_FILES = {
  "index.html": "<!doctype html><title>Cartner</title><div id=root></div>",
  "app.html": "<!doctype html><title>Cartner</title><div id=root></div>",
  "login.html": "<!doctype html><title>Cartner</title><div id=root></div>",
  "assets/app-abc123.js": "console.log(1)",
  "assets/vendor-def456.js": "console.log(2)",
  "assets/app-abc123.css": "body{}",
  "assets/dm-sans-latin-400-normal-a1b2.woff2": "font",
  "assets/sora-latin-700-normal-c3d4.woff2": "font",
};
const ASSETS = Object.keys(WEB_FILES)
  .filter((file) => file.startsWith("assets/"))
  .map((file) => `/${file}`);

let web: string;
beforeAll(async () => {
  web = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-web-"));
  await fs.mkdir(path.join(web, "assets"));
  for (const [file, text] of Object.entries(WEB_FILES)) {
    await fs.writeFile(path.join(web, file), text);
  }
});
afterAll(async () => fs.rm(web, { recursive: true, force: true }));

/** An API call proper, not a picture or avatar. */
const isApiCall = (url: string) =>
  url.startsWith("/api/") && !/^\/api\/(catalog\/images|avatars)\/|\/avatar$/.test(url);

interface Person {
  name: string;
  userId: string;
  token: string;
  /** What the browser has cached, until when (by the answers' Cache-Control max-age). */
  cached: Map<string, number>;
  socket?: Peer;
}

describe("a household behind one address, at the default limits", () => {
  let t: TestApp;
  let people: Person[];
  let sessionId: string;
  let cartId: string;
  /** The live socket's URL once the app listens. */
  let live: string;
  /** Every answer's status by request, for the assertions. */
  const answers: { who: string; url: string; status: number; minute: number }[] = [];
  let start = 0;
  const minute = () => Math.floor((t.clock.now().getTime() - start) / MINUTE);

  beforeAll(async () => {
    // RATE_LIMIT and AUTH_RATE_LIMIT as shipped; RATE_LIMIT_PER_ADDRESS unset (10 × RATE_LIMIT).
    t = await createTestApp({
      env: { WEB_DIST: web, RATE_LIMIT: "600", AUTH_RATE_LIMIT: "30" },
    });
    people = [];
    for (const name of ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]) {
      people.push({ name, ...(await signUp(t, name)), cached: new Map() });
    }
  });
  afterAll(async () => {
    for (const person of people) person.socket?.socket.close();
    await t.close();
  });

  /** An API call as the web app makes it: with the person's token, from the household's address. */
  async function api(person: Person, method: "GET" | "POST", url: string, payload?: object) {
    const res = await t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${person.token}` },
      ...(payload ? { payload } : {}),
    });
    answers.push({ who: person.name, url, status: res.statusCode, minute: minute() });
    return res;
  }

  /** A file the browser loads by itself (no token), unless its cached copy is still fresh. */
  async function file(person: Person, url: string) {
    const now = t.clock.now().getTime();
    if ((person.cached.get(url) ?? 0) > now) return;
    const res = await t.app.inject({ method: "GET", url });
    answers.push({ who: person.name, url, status: res.statusCode, minute: minute() });
    const maxAge = /max-age=(\d+)/.exec(String(res.headers["cache-control"]))?.[1];
    if (maxAge) person.cached.set(url, now + Number(maxAge) * SECOND);
    // A redirect (an avatar without an upload) is followed, as the browser does.
    if (res.statusCode === 302) await file(person, String(res.headers.location));
  }

  async function loadApp(person: Person) {
    await file(person, "/");
    for (const asset of ASSETS) await file(person, asset);
    await api(person, "GET", "/api/profile/me");
    await api(person, "GET", "/api/sessions/my");
    await api(person, "GET", "/api/notifications");
  }

  async function showCart(person: Person) {
    await api(person, "GET", `/api/sessions/${sessionId}`);
    await api(person, "GET", `/api/sessions/${sessionId}/cart`);
    for (const member of people) await file(person, `/api/users/${member.userId}/avatar`);
  }

  async function browseProducts(person: Person) {
    const res = await api(person, "GET", "/api/products");
    const products = (res.statusCode === 200 ? res.json().products : []) as {
      _id: string;
      stock: number;
      imageUrl: string;
    }[];
    for (const product of products) await file(person, new URL(product.imageUrl).pathname);
    return products;
  }

  it("six people shopping together for five minutes never see 429, the live socket included", async () => {
    const [ann, ...others] = people as [Person, ...Person[]];
    start = t.clock.now().getTime();
    const created = await api(ann, "POST", "/api/sessions", {
      sessionName: "Family groceries",
      sessionType: "Family",
      participants: "3+",
      passcode: "tulip",
    });
    expect(created.statusCode, created.body).toBe(201);
    ({ _id: sessionId, cartId } = created.json().session);
    const code = created.json().session.sessionCode as string;
    for (const person of others) {
      const join = await api(person, "POST", "/api/sessions/join/code", {
        sessionCode: code,
        passcode: "tulip",
      });
      expect(join.statusCode, join.body).toBe(202);
      await api(ann, "POST", `/api/sessions/approve/${code}`, { userId: person.userId });
    }
    live = await listenForLive(t);
    const inStock = (await browseProducts(ann)).filter((p) => p.stock > 20);

    // Every 5 s each person does what the app does: the 5 s sync poll (as while the live socket
    // is down, the heaviest case), a screen every 10 s (the catalog with its pictures, or the
    // cart with everyone's avatars, and the notification list), an added product every 30 s, a
    // reload every minute and a new live socket every minute.
    for (let step = 0; step < 60; step++) {
      for (const [index, person] of people.entries()) {
        if (step % 12 === 0) {
          await loadApp(person);
          person.socket?.socket.close();
          person.socket = await signedIn(live, person.token).catch((error: Error) => {
            // The upgrade was refused ("Unexpected server response: 429").
            answers.push({
              who: person.name,
              url: `/api/live ${error.message}`,
              status: 0,
              minute: minute(),
            });
            return undefined;
          });
        }
        await api(person, "GET", "/api/sessions/sync");
        if (step % 2 === 0) await browseProducts(person);
        else await showCart(person);
        if (step % 2 === 1) await api(person, "GET", "/api/notifications");
        if (step % 6 === 3) {
          const product = inStock[(index * 7 + step) % inStock.length];
          await api(person, "POST", `/api/carts/${cartId}/product`, {
            productId: product?._id,
            quantity: 1,
          });
        }
      }
      t.clock.advance(5 * SECOND);
    }

    expect(answers.filter((a) => a.status === 429)).toEqual([]);
    expect(answers.filter((a) => a.status >= 400 || a.status === 0)).toEqual([]);
    // The traffic was real: in the first minute more requests from the address than the 600 a
    // minute that used to be its whole budget, and each person about 40 API calls a minute.
    const perMinute = (filter: (a: (typeof answers)[number]) => boolean) =>
      [0, 1, 2, 3, 4].map((m) => answers.filter((a) => a.minute === m && filter(a)).length);
    expect(perMinute(() => true)[0]).toBeGreaterThan(600);
    for (const person of people) {
      const calls = perMinute((a) => a.who === person.name && isApiCall(a.url));
      expect(Math.min(...calls), person.name).toBeGreaterThan(35);
    }
    for (const person of people) expect(person.socket?.messages[0]).toEqual({ type: "ready" });
  });

  it("one client flooding one route still gets 429 with Retry-After; the others at its address do not", async () => {
    const [ann, ben] = people as [Person, Person, ...Person[]];
    t.clock.advance(MINUTE);
    const flood = [];
    for (let i = 0; i < 601; i++) flood.push(await api(ann, "GET", "/api/sessions/sync"));
    expect(flood.slice(0, 600).filter((res) => res.statusCode !== 200)).toEqual([]);
    const limited = flood[600]!;
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: "RATE_LIMITED", message: expect.any(String) });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(limited.headers["retry-after"])).toBeLessThanOrEqual(60);

    // The limit is Ann's: Ben at the same address goes on, and pictures still load for her.
    expect((await api(ben, "GET", "/api/sessions/sync")).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/avatars/ann.svg" })).statusCode).toBe(
      200,
    );
    // A minute later Ann's budget is whole again.
    t.clock.advance(MINUTE);
    expect((await api(ann, "GET", "/api/sessions/sync")).statusCode).toBe(200);
  });

  it("anonymous calls that use up the address's budget leave the live socket's opening alone", async () => {
    t.clock.advance(MINUTE);
    const anonymous = () => t.app.inject({ method: "GET", url: "/api/push/public-key" });
    for (let i = 0; i < 600; i++) expect((await anonymous()).statusCode).toBe(200);
    expect((await anonymous()).statusCode).toBe(429);
    const ben = people[1]!;
    const socket = await signedIn(live, ben.token);
    expect(socket.messages[0]).toEqual({ type: "ready" });
    socket.socket.close();
  });
});

describe("what the limits still refuse (small limits)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { WEB_DIST: web, RATE_LIMIT: "5", RATE_LIMIT_PER_ADDRESS: "12" },
    });
  });
  afterAll(async () => t.close());

  const call = (remoteAddress: string, token?: string) =>
    t.app.inject({
      method: "GET",
      url: "/api/sessions/my",
      remoteAddress,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  const statuses = async (n: number, remoteAddress: string, token?: string) => {
    const answers = [];
    for (let i = 0; i < n; i++) answers.push((await call(remoteAddress, token)).statusCode);
    return answers;
  };

  it("counts forged tokens per address, apart from the signed-in people there", async () => {
    const { token } = await signUp(t, "Gus");
    expect(await statuses(6, "10.8.0.1", "forged.token.here")).toEqual([
      401, 401, 401, 401, 401, 429,
    ]);
    expect(await statuses(6, "10.8.0.1")).toEqual([429, 429, 429, 429, 429, 429]);
    // Gus, signed in at the same address, has his own budget.
    expect(await statuses(1, "10.8.0.1", token)).toEqual([200]);
    t.clock.advance(MINUTE);
  });

  it("holds every account behind one address to RATE_LIMIT_PER_ADDRESS together", async () => {
    const [a, b, c] = [await signUp(t, "Hal"), await signUp(t, "Ida"), await signUp(t, "Jon")];
    expect(await statuses(6, "10.8.0.2", a.token)).toEqual([200, 200, 200, 200, 200, 429]);
    // 5 + 5 + 2 make the address's 12.
    expect(await statuses(5, "10.8.0.2", b.token)).toEqual([200, 200, 200, 200, 200]);
    expect(await statuses(3, "10.8.0.2", c.token)).toEqual([200, 200, 429]);
    // Jon elsewhere is within his own budget.
    expect(await statuses(1, "10.8.0.3", c.token)).toEqual([200]);
    t.clock.advance(MINUTE);
  });

  it("never counts pictures, avatars or the web app's files", async () => {
    const { userId } = await signUp(t, "Kim");
    const products = await t.app.inject({
      method: "GET",
      url: "/api/products",
      headers: { authorization: `Bearer ${(await signUp(t, "Lea")).token}` },
    });
    const image = new URL(products.json().products[0].imageUrl).pathname;
    for (const url of [
      image,
      `/api/users/${userId}/avatar`,
      "/api/avatars/kim.svg",
      "/",
      "/login",
      "/cart/abc",
      ...ASSETS,
    ]) {
      const codes = new Set<number>();
      for (let i = 0; i < 20; i++) {
        codes.add(
          (await t.app.inject({ method: "GET", url, remoteAddress: "10.8.0.4" })).statusCode,
        );
      }
      // An avatar without an upload redirects to the generated one.
      expect([...codes], url).toEqual([url.endsWith("/avatar") ? 302 : 200]);
    }
    // …and an API call from there is answered, not refused: the address's budget is whole.
    expect(await statuses(5, "10.8.0.4")).toEqual([401, 401, 401, 401, 401]);
  });
});
