/**
 * Notifications through the API (PGlite and PostgreSQL): who hears of what, in which words, the
 * grouping of changes, reading, the reader's choices and their validation, the live event, and
 * the push and email channels called by those choices.
 */
import type { Notification } from "@cartner/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notificationPreferences, notifications } from "../../src/db/schema.ts";
import type { OutgoingNotice } from "../../src/features/notifications/index.ts";
import {
  PASSWORD,
  client,
  createTestApp,
  sessionWithEveryRole,
  signUp,
  type Client,
  type TestApp,
} from "../helpers.ts";
import { listenForLive, settle, signedIn } from "../live-peers.ts";

const delivered: { channel: "push" | "email"; notice: OutgoingNotice }[] = [];
let t: TestApp;
let base: string;
let products: { _id: string; name: string; stock: number }[];

beforeAll(async () => {
  t = await createTestApp({
    channels: {
      push: { deliver: async (notice) => void delivered.push({ channel: "push", notice }) },
      email: { deliver: async (notice) => void delivered.push({ channel: "email", notice }) },
    },
  });
  base = await listenForLive(t);
  const f = await sessionWithEveryRole(t);
  products = (await f.as.creator("GET", "/api/products?limit=50")).json().products;
  products = products.filter((p) => p.stock > 20);
});
afterAll(() => t.close());

/** The reader's notifications once the work after the answers is done. */
async function inbox(as: Client): Promise<{ notifications: Notification[]; unread: number }> {
  await t.app.idle();
  const res = await as("GET", "/api/notifications");
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** A world with every role, everyone's notices of its making read. */
async function world() {
  const f = await sessionWithEveryRole(t);
  await t.app.idle();
  for (const as of Object.values(f.as)) await as("POST", "/api/notifications/read", { all: true });
  delivered.length = 0;
  return f;
}

const add = (as: Client, cartId: string, productId: string, quantity = 1) =>
  as("POST", `/api/carts/${cartId}/product`, { productId, quantity });

/** What a person who never chose has (every kind in the app; push but for changes; email for money and reminders). */
const defaults = {
  kinds: {
    changes: { inApp: true, push: false, email: false },
    reminder: { inApp: true, push: true, email: true },
    checkout: { inApp: true, push: true, email: true },
    payment: { inApp: true, push: true, email: true },
    membership: { inApp: true, push: true, email: false },
  },
  quietHours: null,
};

describe("changes by others", () => {
  it("tells every other member (viewers too, not the pending requester or the actor), linking the cart", async () => {
    const f = await world();
    const wine = products[0]!;
    expect((await add(f.as.participant, f.cartId, wine._id)).statusCode).toBe(200);
    for (const role of ["creator", "viewer"] as const) {
      const { notifications, unread } = await inbox(f.as[role]);
      expect(unread).toBe(1);
      expect(notifications[0]).toMatchObject({
        kind: "changes",
        sessionId: f.sessionId,
        title: "Changes in Weekend groceries",
        body: `Ben added ${wine.name} to Weekend groceries`,
        url: `/cart/${f.sessionId}`,
        readAt: null,
      });
    }
    for (const role of ["participant", "pending", "stranger"] as const) {
      expect((await inbox(f.as[role])).unread).toBe(0);
    }
  });

  it("groups changes in one session into one unread notification per reader until read", async () => {
    const f = await world();
    const [a, b, c] = products;
    await add(f.as.participant, f.cartId, a!._id);
    await t.app.idle();
    await add(f.as.participant, f.cartId, b!._id);
    await t.app.idle();
    let box = await inbox(f.as.creator);
    expect(box.unread).toBe(1);
    expect(box.notifications.filter((n) => n.kind === "changes")).toHaveLength(1);
    expect(box.notifications[0]!.body).toBe(`Ben added ${b!.name} to Weekend groceries (+1 more)`);
    await f.as.creator("POST", "/api/notifications/read", { ids: [box.notifications[0]!._id] });
    await add(f.as.participant, f.cartId, c!._id);
    box = await inbox(f.as.creator);
    expect(box.unread).toBe(1);
    expect(box.notifications.filter((n) => n.kind === "changes")).toHaveLength(2);
    expect(box.notifications[0]!.body).toBe(`Ben added ${c!.name} to Weekend groceries`);
    expect(box.notifications[1]!.readAt).not.toBeNull();
  });

  it("counts every change of a burst in the one grouped notification, naming the latest", async () => {
    const f = await world();
    const burst = products.slice(10, 16);
    const answers = await Promise.all(burst.map((p) => add(f.as.participant, f.cartId, p._id)));
    expect(answers.map((a) => a.statusCode)).toEqual(burst.map(() => 200));
    const { events } = (await f.as.creator("GET", `/api/sessions/${f.sessionId}/activity`)).json();
    const latest = events.at(-1).product;
    const box = await inbox(f.as.creator);
    expect(box.unread).toBe(1);
    expect(box.notifications[0]!.body).toBe(
      `Ben added ${latest} to Weekend groceries (+${burst.length - 1} more)`,
    );
  });

  it("names removals and sharing", async () => {
    const f = await world();
    const p = products[3]!;
    await add(f.as.participant, f.cartId, p._id);
    await t.app.idle();
    await f.as.creator("POST", "/api/notifications/read", { all: true });
    expect(
      (await f.as.participant("DELETE", `/api/carts/${f.cartId}/product/${p._id}`)).statusCode,
    ).toBe(200);
    const box = await inbox(f.as.creator);
    expect(box.notifications[0]!.body).toBe(`Ben removed ${p.name} from Weekend groceries`);
  });

  it("tells a removed member once and nothing more after", async () => {
    const f = await world();
    const res = await f.as.creator(
      "DELETE",
      `/api/sessions/${f.sessionId}/members/${f.people.viewer.userId}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    await add(f.as.participant, f.cartId, products[4]!._id);
    const box = await inbox(f.as.viewer);
    expect(box.notifications.filter((n) => n.readAt === null)).toEqual([
      expect.objectContaining({
        kind: "membership",
        body: "Ann removed you from Weekend groceries",
        url: "/sessions",
      }),
    ]);
    expect(box.notifications[0]).not.toHaveProperty("sessionId");
  });
});

describe("checkout and payments", () => {
  async function checkedOut() {
    const f = await world();
    await add(f.as.creator, f.cartId, products[0]!._id, 2);
    await add(f.as.participant, f.cartId, products[1]!._id, 3);
    await t.app.idle();
    for (const as of Object.values(f.as))
      await as("POST", "/api/notifications/read", { all: true });
    delivered.length = 0;
    const res = await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`);
    expect(res.statusCode, res.body).toBe(201);
    return {
      ...f,
      order: res.json().order as {
        _id: string;
        number: string;
        split: { userId: string; total: number }[];
      },
    };
  }
  const usd = (n: number) =>
    new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(n);

  it("tells each sharer their own share, never the payee who checked out, never a viewer", async () => {
    const f = await checkedOut();
    const ben = f.order.split.find((s) => s.userId === f.people.participant.userId)!;
    const box = await inbox(f.as.participant);
    expect(box.notifications[0]).toMatchObject({
      kind: "checkout",
      orderId: f.order._id,
      sessionId: f.sessionId,
      title: "Weekend groceries was checked out",
      body: `Ann checked out Weekend groceries: you owe ${usd(ben.total)}`,
      url: `/orders/${f.order._id}`,
    });
    expect((await inbox(f.as.creator)).unread).toBe(0);
    expect((await inbox(f.as.viewer)).unread).toBe(0);
    expect((await inbox(f.as.pending)).unread).toBe(0);
  });

  it("tells the payee of a share marked paid, and the member of its settlement; viewers never", async () => {
    const f = await checkedOut();
    const ben = f.order.split.find((s) => s.userId === f.people.participant.userId)!;
    expect((await f.as.participant("POST", `/api/orders/${f.order._id}/paid`)).statusCode).toBe(
      200,
    );
    let box = await inbox(f.as.creator);
    expect(box.notifications[0]).toMatchObject({
      kind: "payment",
      title: "Ben paid their share",
      body: `Ben marked ${usd(ben.total)} for Weekend groceries (${f.order.number}) as paid to you`,
      url: `/orders/${f.order._id}`,
    });
    // Marking it again changes nothing and tells nobody.
    await f.as.participant("POST", `/api/orders/${f.order._id}/paid`);
    expect((await inbox(f.as.creator)).unread).toBe(1);
    const confirm = await f.as.creator(
      "POST",
      `/api/orders/${f.order._id}/confirm/${f.people.participant.userId}`,
    );
    expect(confirm.statusCode, confirm.body).toBe(200);
    box = await inbox(f.as.participant);
    expect(box.notifications[0]).toMatchObject({
      kind: "payment",
      body: `Ann confirmed your payment of ${usd(ben.total)} for Weekend groceries (${f.order.number})`,
    });
    expect((await inbox(f.as.viewer)).unread).toBe(0);
  });

  it("delivers checkout by push and email by default", async () => {
    const f = await checkedOut();
    await t.app.idle();
    const toBen = delivered.filter((d) => d.notice.user.id === f.people.participant.userId);
    expect(toBen.map((d) => d.channel).sort()).toEqual(["email", "push"]);
    expect(toBen[0]!.notice.notification.kind).toBe("checkout");
    expect(toBen[0]!.notice.user.name).toBe("Ben");
  });
});

describe("membership", () => {
  it("tells the creator of a join request, the requester of the answer, the invitee of the invite", async () => {
    const ann = await signUp(t, "Ann");
    const dee = await signUp(t, "Dee");
    const eve = await signUp(t, "Eve");
    const [asAnn, asDee, asEve] = [ann, dee, eve].map((p) => client(t, p.token));
    const created = await asAnn!("POST", "/api/sessions", {
      sessionName: "Picnic",
      sessionType: "Friends",
      participants: "3+",
    });
    const { _id: sessionId, sessionCode } = created.json().session;
    await asDee!("POST", "/api/sessions/join/code", { sessionCode, passcode: "" });
    await asEve!("POST", "/api/sessions/join/code", { sessionCode, passcode: "" });
    let box = await inbox(asAnn!);
    expect(box.notifications.map((n) => n.body).sort()).toEqual([
      "Dee asked to join Picnic",
      "Eve asked to join Picnic",
    ]);
    expect(box.notifications[0]!.url).toBe(`/session/${sessionId}`);
    await asAnn!("POST", `/api/sessions/approve/${sessionCode}`, { userId: dee.userId });
    await asAnn!("POST", `/api/sessions/reject/${sessionCode}`, { userId: eve.userId });
    expect((await inbox(asDee!)).notifications[0]).toMatchObject({
      kind: "membership",
      body: "Ann let you into Picnic",
      url: `/session/${sessionId}`,
    });
    expect((await inbox(asEve!)).notifications[0]).toMatchObject({
      body: "Ann declined your request to join Picnic",
      url: "/sessions",
    });
    const fay = await signUp(t, "Fay");
    await asAnn!("POST", "/api/sessions/invite", {
      sessionCode,
      emailOrUsername: fay.email,
      role: "viewer",
    });
    box = await inbox(client(t, fay.token));
    expect(box.notifications[0]).toMatchObject({
      body: "Ann invited you to Picnic as a viewer",
      url: "/sessions",
    });
  });
});

describe("reading", () => {
  it("marks ids and all read, answers the unread count, and leaves another user's ids alone", async () => {
    const f = await world();
    for (const p of products.slice(0, 3)) {
      await add(f.as.participant, f.cartId, p._id);
      await t.app.idle();
      // Reading each leaves the next change a notification of its own.
      const box = await inbox(f.as.creator);
      await f.as.creator("POST", "/api/notifications/read", {
        ids: box.notifications.filter((n) => !n.readAt).map((n) => n._id),
      });
    }
    await add(f.as.participant, f.cartId, products[3]!._id);
    const creatorBox = await inbox(f.as.creator);
    const viewerBox = await inbox(f.as.viewer);
    expect(creatorBox.unread).toBe(1);
    expect(viewerBox.unread).toBe(1);
    // The viewer names the creator's notification: nothing happens to it.
    const foreign = await f.as.viewer("POST", "/api/notifications/read", {
      ids: [creatorBox.notifications[0]!._id],
    });
    expect(foreign.json()).toEqual({ unread: 1 });
    expect((await inbox(f.as.creator)).unread).toBe(1);
    const mine = await f.as.creator("POST", "/api/notifications/read", {
      ids: [creatorBox.notifications[0]!._id],
    });
    expect(mine.json()).toEqual({ unread: 0 });
    expect((await f.as.viewer("POST", "/api/notifications/read", { all: true })).json()).toEqual({
      unread: 0,
    });
  });

  it("pages newest first with after and limit", async () => {
    const f = await world();
    for (const p of products.slice(0, 3)) {
      await add(f.as.participant, f.cartId, p._id);
      await t.app.idle();
      await f.as.creator("POST", "/api/notifications/read", { all: true });
    }
    const all = (await inbox(f.as.creator)).notifications;
    const first = (await f.as.creator("GET", "/api/notifications?limit=2")).json().notifications;
    expect(first.map((n: Notification) => n._id)).toEqual(all.slice(0, 2).map((n) => n._id));
    const next = await f.as.creator("GET", `/api/notifications?limit=2&after=${first[1]._id}`);
    expect(next.json().notifications.map((n: Notification) => n._id)).toEqual(
      all.slice(2, 4).map((n) => n._id),
    );
  });

  it.each([
    ["/api/notifications?limit=0", "limit"],
    ["/api/notifications?limit=101", "limit"],
    ["/api/notifications?after=nope", "after"],
  ])("refuses %s naming %s", async (url, field) => {
    const f = await world();
    const res = await f.as.creator("GET", url);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields ?? {})).toContain(field);
  });

  it.each([[{}], [{ ids: "x" }], [{ all: false }], [{ ids: [], all: true }]])(
    "refuses the read body %j",
    async (body) => {
      const f = await world();
      expect((await f.as.creator("POST", "/api/notifications/read", body)).statusCode).toBe(400);
    },
  );
});

describe("preferences", () => {
  it("answers the defaults, then what was saved", async () => {
    const as = client(t, (await signUp(t, "Gil")).token);
    const got = await as("GET", "/api/users/me/notification-preferences");
    expect(got.json()).toEqual({ preferences: defaults });
    const mine = {
      kinds: { ...defaults.kinds, changes: { inApp: false, push: true, email: false } },
      quietHours: { from: "22:00", to: "07:00", timeZone: "Europe/Paris" },
    };
    const put = await as("PUT", "/api/users/me/notification-preferences", mine);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ preferences: mine });
    expect((await as("GET", "/api/users/me/notification-preferences")).json()).toEqual({
      preferences: mine,
    });
  });

  const quiet = (q: unknown) => ({ ...defaults, quietHours: q });
  it.each([
    [
      "an unknown time zone",
      quiet({ from: "22:00", to: "07:00", timeZone: "Mars/Olympus" }),
      "quietHours.timeZone",
    ],
    ["24:00", quiet({ from: "24:00", to: "07:00", timeZone: "UTC" }), "quietHours.from"],
    ["7:00", quiet({ from: "22:00", to: "7:00", timeZone: "UTC" }), "quietHours.to"],
    ["from = to", quiet({ from: "22:00", to: "22:00", timeZone: "UTC" }), "quietHours.to"],
    [
      "an unknown kind",
      { ...defaults, kinds: { ...defaults.kinds, gossip: defaults.kinds.changes } },
      "kinds",
    ],
    [
      "a missing kind",
      { ...defaults, kinds: { ...defaults.kinds, changes: undefined } },
      "kinds.changes",
    ],
    [
      "an unknown channel",
      {
        ...defaults,
        kinds: { ...defaults.kinds, changes: { inApp: true, push: true, email: true, sms: true } },
      },
      "kinds.changes",
    ],
    ["an unknown field", { ...defaults, digest: true }, ""],
  ])("refuses %s, naming the field, and stores nothing", async (_, body, field) => {
    const as = client(t, (await signUp(t, "Hal")).token);
    const res = await as("PUT", "/api/users/me/notification-preferences", body);
    expect(res.statusCode).toBe(400);
    if (field) expect(Object.keys(res.json().fields ?? {}).join(" ")).toContain(field);
    expect((await as("GET", "/api/users/me/notification-preferences")).json()).toEqual({
      preferences: defaults,
    });
  });

  it("with changes off in the app, stores no notice of changes; channels follow the choices", async () => {
    const f = await world();
    const prefs = {
      ...defaults,
      kinds: { ...defaults.kinds, changes: { inApp: false, push: true, email: false } },
    };
    await f.as.creator("PUT", "/api/users/me/notification-preferences", prefs);
    await add(f.as.participant, f.cartId, products[5]!._id);
    expect((await inbox(f.as.creator)).unread).toBe(0);
    const toAnn = delivered.filter((d) => d.notice.user.id === f.people.creator.userId);
    expect(toAnn.map((d) => d.channel)).toEqual(["push"]);
    expect(toAnn[0]!.notice.notification.body).toContain("Ben added");
    // The viewer keeps the defaults: in the app, no push or email for changes.
    expect((await inbox(f.as.viewer)).unread).toBe(1);
    expect(delivered.filter((d) => d.notice.user.id === f.people.viewer.userId)).toEqual([]);
  });

  it("quiet hours never hold the app's list; push and email go to their channels, whose jobs wait (quiet-hours.test.ts)", async () => {
    const f = await world();
    const now = t.clock.now();
    const hh = (h: number) => String(h).padStart(2, "0");
    const from = `${hh(now.getUTCHours())}:00`;
    const to = `${hh((now.getUTCHours() + 2) % 24)}:00`;
    await f.as.creator("PUT", "/api/users/me/notification-preferences", {
      ...defaults,
      kinds: { ...defaults.kinds, changes: { inApp: true, push: true, email: true } },
      quietHours: { from, to, timeZone: "UTC" },
    });
    await add(f.as.participant, f.cartId, products[6]!._id);
    expect((await inbox(f.as.creator)).unread).toBe(1);
    expect(
      delivered.filter((d) => d.notice.user.id === f.people.creator.userId).map((d) => d.channel),
    ).toEqual(["push", "email"]);
  });
});

describe("live", () => {
  it("sends notification.created to its reader only", async () => {
    const f = await world();
    const peers = {
      creator: await signedIn(base, f.people.creator.token),
      participant: await signedIn(base, f.people.participant.token),
      stranger: await signedIn(base, f.people.stranger.token),
    };
    await add(f.as.participant, f.cartId, products[7]!._id);
    const event = await peers.creator.next((m) => m.type === "notification.created");
    const box = await inbox(f.as.creator);
    expect(event).toEqual({
      type: "notification.created",
      notificationId: box.notifications[0]!._id,
    });
    await settle();
    for (const peer of [peers.participant, peers.stranger]) {
      expect(peer.messages.filter((m) => m.type === "notification.created")).toEqual([]);
    }
    for (const peer of Object.values(peers)) peer.socket.close();
  });
});

describe("the account", () => {
  it("exports the notifications and choices, and deleting it deletes them", async () => {
    const f = await world();
    await f.as.creator("PUT", "/api/users/me/notification-preferences", {
      ...defaults,
      kinds: { ...defaults.kinds, changes: { inApp: true, push: true, email: false } },
    });
    await add(f.as.participant, f.cartId, products[8]!._id);
    await t.app.idle();
    const exported = (await f.as.creator("GET", "/api/users/me/export")).json();
    expect(exported.notifications.at(-1)).toMatchObject({ kind: "changes", readAt: null });
    expect(exported.notificationPreferences.kinds.changes.push).toBe(true);
    // Ann owes nothing and is owed nothing: the session she runs ends with her account.
    const gone = await f.as.creator("DELETE", "/api/users/me", { password: PASSWORD });
    expect(gone.statusCode, gone.body).toBe(204);
    const db = t.database.db;
    expect(
      await db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, f.people.creator.userId)),
    ).toEqual([]);
    expect(
      await db
        .select()
        .from(notificationPreferences)
        .where(eq(notificationPreferences.userId, f.people.creator.userId)),
    ).toEqual([]);
  });
});
