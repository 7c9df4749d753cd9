/**
 * Accounts: forgot and reset password, signed-in devices, export, deletion (and what
 * it does to shares not yet settled and to open carts), and a second login within a minute of a
 * sent code (PGlite and PostgreSQL).
 */
import { OTP_MAX_ATTEMPTS, OTP_RESEND_INTERVAL_MS } from "@cartner/contract";
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devMails, idempotencyKeys, sessionInvites } from "../../src/db/schema.ts";
import {
  PASSWORD,
  client,
  createTestApp,
  latestCode,
  sessionWithEveryRole,
  signUp,
  uniqueEmail,
  type TestApp,
  withoutRequestId,
} from "../helpers.ts";
import { listenForLive, signedIn, within } from "../live-peers.ts";

type Fixture = Awaited<ReturnType<typeof sessionWithEveryRole>>;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "POST", url, payload, headers });

async function mailsTo(email: string) {
  return t.database.db
    .select()
    .from(devMails)
    .where(eq(devMails.recipient, email))
    .orderBy(desc(devMails.createdAt));
}

/** Waits for a mail sent after the answer (reset codes go out in the background). */
async function resetCode(email: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const [mail] = await mailsTo(email);
    const code = mail?.subject.startsWith("Reset")
      ? mail.text.match(/Your code: (\d{6})/)?.[1]
      : undefined;
    if (code) return code;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no reset code mailed to ${email}`);
}

describe("forgot and reset password", () => {
  it("answers the same for an unknown email, mails a code to a known one, and the reset signs out every device", async () => {
    const ann = await signUp(t, "Ann");
    const unknown = await post("/api/auth/forgot-password", { email: "nobody.here@example.com" });
    const known = await post("/api/auth/forgot-password", { email: ann.email });
    expect(unknown.statusCode).toBe(200);
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    const code = await resetCode(ann.email);
    expect((await mailsTo("nobody.here@example.com")).length).toBe(0);

    // The reset code is not a sign-in code.
    const asLogin = await post("/api/auth/verify-otp", { userId: ann.userId, code });
    expect(asLogin.statusCode).toBe(400);

    const reset = await post("/api/auth/reset-password", {
      email: ann.email,
      code,
      password: "new-orchard-77",
    });
    expect(reset.statusCode, reset.body).toBe(200);
    // Every device is signed out; the old password no longer works, the new one does.
    const me = await client(t, ann.token)("GET", "/api/auth/validate-token");
    expect(me.statusCode).toBe(401);
    expect(
      (await post("/api/auth/login", { email: ann.email, password: PASSWORD })).statusCode,
    ).toBe(401);
    expect(
      (await post("/api/auth/login", { email: ann.email, password: "new-orchard-77" })).statusCode,
    ).toBe(200);
    // The code is spent.
    const again = await post("/api/auth/reset-password", {
      email: ann.email,
      code,
      password: "third-orchard-99",
    });
    expect(again.statusCode).toBe(400);
  });

  it("kills the code after five wrong tries; a wrong code or email changes nothing", async () => {
    const ben = await signUp(t, "Ben");
    await post("/api/auth/forgot-password", { email: ben.email });
    const code = await resetCode(ben.email);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) {
      const res = await post(
        "/api/auth/reset-password",
        { email: ben.email, code: wrong, password: "new-orchard-77" },
        { "x-forwarded-for": `10.0.0.${i}` },
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe("INVALID_CODE");
    }
    const late = await post("/api/auth/reset-password", {
      email: ben.email,
      code,
      password: "new-orchard-77",
    });
    expect(late.statusCode).toBe(400);
    expect((await client(t, ben.token)("GET", "/api/auth/validate-token")).statusCode).toBe(200);
    for (const body of [
      { email: "nobody.here@example.com", code, password: "new-orchard-77" },
      { email: ben.email, code: "12", password: "new-orchard-77" },
      { email: ben.email, code, password: "short" },
      { email: ben.email, code, password: "new-orchard-77", extra: 1 },
    ]) {
      const res = await post("/api/auth/reset-password", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});

describe("reset-password with a known or an unknown email", () => {
  it("answers alike, also after ten wrong codes from one address: both are then refused for the hour", async () => {
    const gus = await signUp(t, "Gus");
    const unknown = uniqueEmail("nobody");
    const attempt = (email: string, code: string, remoteAddress = "10.6.0.1") =>
      t.app.inject({
        method: "POST",
        url: "/api/auth/reset-password",
        payload: { email, code, password: "new-orchard-77" },
        remoteAddress,
      });
    const answer = (res: Awaited<ReturnType<typeof attempt>>) => ({
      status: res.statusCode,
      retryAfter: res.headers["retry-after"],
      body: withoutRequestId(res.json()),
    });
    // Two live codes' worth of wrong guesses for the known email, the same for the unknown one.
    for (let round = 0; round < 2; round++) {
      t.clock.advance(OTP_RESEND_INTERVAL_MS + 1_000);
      await post("/api/auth/forgot-password", { email: gus.email });
      await post("/api/auth/forgot-password", { email: unknown });
      await t.app.idle();
      const code = await resetCode(gus.email);
      const wrong = code === "000000" ? "111111" : "000000";
      for (let i = 0; i < OTP_MAX_ATTEMPTS; i++) {
        const known = answer(await attempt(gus.email, wrong));
        expect(known.status).toBe(400);
        expect(answer(await attempt(unknown, wrong))).toEqual(known);
      }
    }
    const known = answer(await attempt(gus.email, "123456"));
    expect(known).toMatchObject({ status: 429, retryAfter: "3600" });
    expect(answer(await attempt(unknown, "123456"))).toEqual(known);

    // Only that address is refused: the owner, elsewhere, resets with a fresh code.
    t.clock.advance(OTP_RESEND_INTERVAL_MS + 1_000);
    await post("/api/auth/forgot-password", { email: gus.email });
    await t.app.idle();
    const reset = await attempt(gus.email, await resetCode(gus.email), "10.6.0.2");
    expect(reset.statusCode, reset.body).toBe(200);
  });
});

describe("login within a minute of a sent code", () => {
  it("goes to the code page without a second mail; the code already sent still works", async () => {
    const cat = await signUp(t, "Cat");
    const first = await post("/api/auth/login", { email: cat.email, password: PASSWORD });
    expect(first.statusCode).toBe(200);
    const mails = (await mailsTo(cat.email)).length;
    const second = await post("/api/auth/login", { email: cat.email, password: PASSWORD });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ userId: cat.userId, codeAlreadySent: true });
    expect(second.json().message).toMatch(/still works/);
    expect((await mailsTo(cat.email)).length).toBe(mails);
    const code = await latestCode(t.database, cat.email);
    expect((await post("/api/auth/verify-otp", { userId: cat.userId, code })).statusCode).toBe(200);
  });
});

describe("devices", () => {
  it("lists signed-in devices with their browser, marks this one, and signs one out", async () => {
    const dan = await signUp(t, "Dan");
    await post("/api/auth/login", { email: dan.email, password: PASSWORD });
    const code = await latestCode(t.database, dan.email);
    const phone = await post(
      "/api/auth/verify-otp",
      { userId: dan.userId, code },
      { "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1" },
    );
    const phoneToken = phone.json().token as string;
    const list = await client(t, dan.token)("GET", "/api/auth/sessions");
    expect(list.statusCode).toBe(200);
    const sessions = list.json().sessions as { _id: string; userAgent: string; current: boolean }[];
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    const iphone = sessions.find((s) => s.userAgent.includes("iPhone"))!;
    expect(iphone.current).toBe(false);

    const out = await client(t, dan.token)("DELETE", `/api/auth/sessions/${iphone._id}`);
    expect(out.statusCode).toBe(204);
    expect((await client(t, phoneToken)("GET", "/api/auth/validate-token")).statusCode).toBe(401);
    expect((await client(t, dan.token)("GET", "/api/auth/validate-token")).statusCode).toBe(200);
    // Someone else's device, a spent one, a malformed id: 404, 404, 400.
    const eve = await signUp(t, "Eve");
    const current = sessions.find((s) => s.current)!;
    expect(
      (await client(t, eve.token)("DELETE", `/api/auth/sessions/${current._id}`)).statusCode,
    ).toBe(404);
    expect(
      (await client(t, dan.token)("DELETE", `/api/auth/sessions/${iphone._id}`)).statusCode,
    ).toBe(404);
    expect((await client(t, dan.token)("DELETE", "/api/auth/sessions/nope")).statusCode).toBe(400);
  });
});

describe("last seen", () => {
  it("moves when a device uses the API, at most once a minute", async () => {
    const gus = await signUp(t, "Gus");
    const api = client(t, gus.token);
    const lastSeen = async () => {
      const res = await api("GET", "/api/auth/sessions");
      const sessions = res.json().sessions as { lastSeenAt: string; current: boolean }[];
      return Date.parse(sessions.find((s) => s.current)!.lastSeenAt);
    };
    const signedIn = await lastSeen();

    // Within the minute: no write, last seen stays.
    t.clock.advance(20_000);
    expect((await api("GET", "/api/sessions/my")).statusCode).toBe(200);
    expect(await lastSeen()).toBe(signedIn);

    // Past it: the next authenticated request moves it to now.
    t.clock.advance(50_000);
    expect((await api("GET", "/api/sessions/my")).statusCode).toBe(200);
    const moved = await lastSeen();
    expect(moved).toBe(t.clock.now().getTime());

    // And again only a minute later.
    t.clock.advance(30_000);
    expect(await lastSeen()).toBe(moved);
    t.clock.advance(31_000);
    expect(await lastSeen()).toBe(t.clock.now().getTime());
  });
});

describe("export and deletion", () => {
  it("exports the account's data as a JSON attachment", async () => {
    const f = await sessionWithEveryRole(t);
    const [product] = (await f.as.creator("GET", "/api/products?limit=1")).json().products;
    await f.as.creator("POST", `/api/carts/${f.cartId}/product`, { productId: product._id });
    const res = await f.as.creator("GET", "/api/users/me/export");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-disposition"]).toContain("attachment");
    const data = res.json();
    expect(data.account).toMatchObject({
      id: f.people.creator.userId,
      email: f.people.creator.email,
    });
    expect(data.sessions[0]).toMatchObject({ sessionName: "Weekend groceries", role: "creator" });
    expect(data.cartLines[0]).toMatchObject({ product: product.name, quantity: 1 });
    expect(JSON.stringify(data)).not.toMatch(/password|codeHash|\$argon/i);
  });

  it("needs the password; ends the sessions they created, keeps others' carts, frees the email", async () => {
    const f = await sessionWithEveryRole(t);
    const [product] = (await f.as.creator("GET", "/api/products?limit=1")).json().products;
    await f.as.participant("POST", `/api/carts/${f.cartId}/product`, { productId: product._id });
    await f.as.creator("POST", `/api/carts/${f.cartId}/product`, { productId: product._id });

    const wrong = await f.as.creator("DELETE", "/api/users/me", { password: "not-my-password" });
    expect(wrong.statusCode).toBe(403);
    expect((await f.as.creator("GET", "/api/auth/validate-token")).statusCode).toBe(200);
    expect((await f.as.creator("DELETE", "/api/users/me", {})).statusCode).toBe(400);

    const gone = await f.as.creator("DELETE", "/api/users/me", { password: PASSWORD });
    expect(gone.statusCode).toBe(204);
    expect((await f.as.creator("GET", "/api/auth/validate-token")).statusCode).toBe(401);
    expect(
      (await post("/api/auth/login", { email: f.people.creator.email, password: PASSWORD }))
        .statusCode,
    ).toBe(401);
    // Ben's view: the session ended, the cart is history with both lines, Ann's name is gone.
    const session = (await f.as.participant("GET", `/api/sessions/${f.sessionId}`)).json().session;
    expect(session.status).toBe("ended");
    const cart = (await f.as.participant("GET", `/api/carts/${f.cartId}`)).json().cart;
    expect(cart.products).toHaveLength(2);
    expect(JSON.stringify(cart)).not.toContain(f.people.creator.email);
    expect(cart.products.map((l: { addedBy: { name: string } }) => l.addedBy.name).sort()).toEqual([
      "Ben",
      "Deleted user",
    ]);
    // The email can sign up again, as a new account.
    const again = await post("/api/auth/register", {
      name: "Ann",
      email: f.people.creator.email,
      password: PASSWORD,
    });
    expect(again.statusCode).toBe(201);
    expect(again.json().userId).not.toBe(f.people.creator.userId);
  });

  it("forgets every invite to the deleted account's email: a new account on it sees none", async () => {
    const f = await sessionWithEveryRole(t);
    const vic = f.people.viewer; // accepted an invite to "Weekend groceries"
    for (const [sessionName, answer] of [
      ["Party", "rejinvite"],
      ["Picnic", "none"],
    ] as const) {
      const made = await f.as.creator("POST", "/api/sessions", {
        sessionName,
        sessionType: "Friends",
        participants: "3+",
      });
      const code = made.json().session.sessionCode;
      const sent = await f.as.creator("POST", "/api/sessions/invite", {
        sessionCode: code,
        emailOrUsername: vic.email,
        role: "participant",
      });
      expect(sent.statusCode).toBe(201);
      if (answer === "rejinvite") {
        const rejected = await t.app.inject({
          method: "POST",
          url: "/api/sessions/rejinvite",
          headers: { authorization: `Bearer ${vic.token}`, "idempotency-key": "reject-party" },
          payload: { sessionCode: code },
        });
        expect(rejected.statusCode).toBe(200);
      }
    }
    const before = (await f.as.viewer("GET", "/api/users/me/export")).json().invitesReceived;
    expect(before.map((i: { status: string }) => i.status).sort()).toEqual([
      "accepted",
      "pending",
      "rejected",
    ]);

    expect((await f.as.viewer("DELETE", "/api/users/me", { password: PASSWORD })).statusCode).toBe(
      204,
    );
    const again = await post("/api/auth/register", {
      name: "Vic",
      email: vic.email,
      password: PASSWORD,
    });
    expect(again.statusCode).toBe(201);
    const verified = await post("/api/auth/verify-otp", {
      userId: again.json().userId,
      code: await latestCode(t.database, vic.email),
    });
    expect(verified.statusCode).toBe(200);
    const newVic = client(t, verified.json().token);
    const data = (await newVic("GET", "/api/users/me/export")).json();
    expect(data.invitesReceived).toEqual([]);
    expect(JSON.stringify(data)).not.toMatch(/Weekend groceries|Party|Picnic/);
    expect((await newVic("GET", "/api/sessions/myinvites")).json().invites).toEqual([]);
    // Nothing addressed to the email is left in the database, nor the answers kept for replays.
    expect(
      await t.database.db.select().from(sessionInvites).where(eq(sessionInvites.email, vic.email)),
    ).toEqual([]);
    expect(
      await t.database.db
        .select()
        .from(idempotencyKeys)
        .where(eq(idempotencyKeys.userId, vic.userId)),
    ).toEqual([]);
  });
});

describe("deleting an account with shares not yet settled", () => {
  type Share = { userId: string; name: string; total: number; status: string };
  const shareOf = (order: { split: Share[] }, userId: string) =>
    order.split.find((s) => s.userId === userId)!;

  /** Ann's session "name" with Ben approved into it; Ann and Ben each add a line. */
  async function groupOf(f: Fixture, name: string, ...productIds: string[]) {
    const made = await f.as.creator("POST", "/api/sessions", {
      sessionName: name,
      sessionType: "Friends",
      participants: "3+",
      passcode: "tulip",
    });
    const session = made.json().session;
    await f.as.participant("POST", "/api/sessions/join/code", {
      sessionCode: session.sessionCode,
      passcode: "tulip",
    });
    await f.as.creator("POST", `/api/sessions/approve/${session.sessionCode}`, {
      userId: f.people.participant.userId,
    });
    for (const [role, productId] of [
      ["creator", productIds[0]],
      ["participant", productIds[1]],
    ] as const) {
      const added = await f.as[role]("POST", `/api/carts/${session.cartId}/product`, {
        productId,
      });
      expect(added.statusCode, added.body).toBe(200);
    }
    return { sessionId: session._id as string, cartId: session.cartId as string };
  }

  async function checkedOut(f: Fixture, name: string, ...productIds: string[]) {
    const g = await groupOf(f, name, ...productIds);
    const placed = await f.as.creator("POST", `/api/sessions/${g.sessionId}/checkout`);
    expect(placed.statusCode, placed.body).toBe(201);
    return { ...g, order: placed.json().order };
  }

  it("lists them (409 UNSETTLED_SHARES) to the one who owes and to the payee, deleting nothing", async () => {
    const f = await sessionWithEveryRole(t);
    const products = (await f.as.creator("GET", "/api/products?limit=4")).json().products;
    const { order } = await checkedOut(f, "Dinner", products[0]._id, products[1]._id);
    const ben = shareOf(order, f.people.participant.userId);
    expect(ben.status).toBe("unpaid");

    const asBen = await f.as.participant("DELETE", "/api/users/me", { password: PASSWORD });
    expect(asBen.statusCode, asBen.body).toBe(409);
    expect(asBen.json()).toEqual({
      requestId: asBen.headers["x-request-id"],
      code: "UNSETTLED_SHARES",
      message: expect.stringMatching(/^You have 1 unsettled share on orders\./),
      shares: [
        {
          orderId: order._id,
          number: order.number,
          amount: -ben.total,
          counterparty: { _id: f.people.creator.userId, name: "Ann" },
        },
      ],
    });
    const asAnn = await f.as.creator("DELETE", "/api/users/me", { password: PASSWORD });
    expect(asAnn.statusCode).toBe(409);
    expect(asAnn.json().shares).toEqual([
      {
        orderId: order._id,
        number: order.number,
        amount: ben.total,
        counterparty: { _id: f.people.participant.userId, name: "Ben" },
      },
    ]);
    // Refused before anything changed: both still sign in, the session still lists Ben.
    for (const role of ["creator", "participant"] as const) {
      expect((await f.as[role]("GET", "/api/auth/validate-token")).statusCode, role).toBe(200);
    }
    // The wrong password is still 403 first; a malformed acknowledgement is 400.
    expect(
      (await f.as.participant("DELETE", "/api/users/me", { password: "not-my-password" }))
        .statusCode,
    ).toBe(403);
    const bad = await f.as.participant("DELETE", "/api/users/me", {
      password: PASSWORD,
      acknowledgeUnsettled: "yes",
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty("acknowledgeUnsettled");
    expect((await f.as.participant("GET", "/api/auth/validate-token")).statusCode).toBe(200);

    // Ann, the payee, deletes anyway: nobody is left to be paid, so Ben's share is written off.
    const other = await sessionWithEveryRole(t);
    const more = await checkedOut(other, "Lunch", products[2]._id, products[3]._id);
    const annGone = await other.as.creator("DELETE", "/api/users/me", {
      password: PASSWORD,
      acknowledgeUnsettled: true,
    });
    expect(annGone.statusCode, annGone.body).toBe(204);
    expect((await other.as.participant("GET", "/api/balances")).json().balances).toEqual([]);
    const lunch = (await other.as.participant("GET", `/api/orders/${more.order._id}`)).json().order;
    expect(shareOf(lunch, other.people.participant.userId)).toMatchObject({
      status: "confirmed",
      settledAs: "written_off",
    });
    const lunchLog = (
      await other.as.participant("GET", `/api/sessions/${more.sessionId}/activity`)
    ).json().events;
    expect(lunchLog.at(-1)).toMatchObject({
      type: "order.confirmed",
      actor: { name: "Ann" },
      member: "Ben",
      how: "written_off",
      reason: "account_deleted",
    });

    // Once the share is settled nothing is listed: deletion needs no acknowledgement.
    await f.as.creator("POST", `/api/orders/${order._id}/confirm/${f.people.participant.userId}`, {
      how: "cash",
    });
    expect(
      (await f.as.participant("DELETE", "/api/users/me", { password: PASSWORD })).statusCode,
    ).toBe(204);
  });

  it("acknowledged: their lines leave open carts (live, in the log), their shares stay on orders for the payee to settle", async () => {
    const f = await sessionWithEveryRole(t);
    const products = (await f.as.creator("GET", "/api/products?limit=6")).json().products;
    const ids = products.map((p: { _id: string }) => p._id);
    const first = await checkedOut(f, "Dinner", ids[0], ids[1]);
    const second = await checkedOut(f, "Brunch", ids[2], ids[3]);
    const open = await groupOf(f, "Picnic", ids[4], ids[5]);
    // Ann shares her Picnic line with Ben.
    const before = (await f.as.creator("GET", `/api/carts/${open.cartId}`)).json().cart;
    const annLine = before.products.find(
      (l: { addedBy: { _id: string } }) => l.addedBy._id === f.people.creator.userId,
    );
    const benLine = before.products.find(
      (l: { addedBy: { _id: string } }) => l.addedBy._id === f.people.participant.userId,
    );
    const shared = await f.as.creator(
      "PUT",
      `/api/carts/${open.cartId}/lines/${annLine._id}/shared-with`,
      { userIds: [f.people.creator.userId, f.people.participant.userId] },
    );
    expect(shared.statusCode, shared.body).toBe(200);
    const version = shared.json().cart.version;

    const base = await listenForLive(t);
    const ann = await signedIn(base, f.people.creator.token);
    const gone = await f.as.participant("DELETE", "/api/users/me", {
      password: PASSWORD,
      acknowledgeUnsettled: true,
    });
    expect(gone.statusCode, gone.body).toBe(204);
    const updated = await within(
      ann.next((m) => m.type === "cart.updated" && m.sessionId === open.sessionId),
      5000,
    );
    expect(updated).toMatchObject({ cartId: open.cartId, version: version + 1 });
    await within(
      ann.next((m) => m.type === "activity.created" && m.sessionId === open.sessionId),
      5000,
    );
    ann.socket.close();

    // The open cart: Ben's line is gone, Ann's line is hers alone again, the split has no Ben.
    const after = (await f.as.creator("GET", `/api/carts/${open.cartId}`)).json().cart;
    expect(after.version).toBe(version + 1);
    expect(after.products.map((l: { _id: string }) => l._id)).toEqual([annLine._id]);
    expect(after.products[0].sharedWith).toEqual([{ _id: f.people.creator.userId, name: "Ann" }]);
    expect(after.split.map((s: { name: string }) => s.name)).toEqual(["Ann"]);
    const log = (await f.as.creator("GET", `/api/sessions/${open.sessionId}/activity`)).json()
      .events;
    expect(log.filter((e: { type: string }) => e.type === "item.removed")).toEqual([
      expect.objectContaining({
        actor: { _id: f.people.participant.userId, name: "Ben" },
        productId: benLine.productId._id,
        product: benLine.productId.name,
        quantity: 1,
        lineOf: "Ben",
        reason: "account_deleted",
      }),
    ]);

    // The orders keep Ben's unpaid shares, under the name they were placed with.
    const benId = f.people.participant.userId;
    for (const { order } of [first, second]) {
      const kept = (await f.as.creator("GET", `/api/orders/${order._id}`)).json().order;
      expect(kept.lines).toEqual(order.lines);
      expect(shareOf(kept, benId)).toMatchObject({
        name: "Ben",
        status: "unpaid",
        settledAs: null,
        accountDeleted: true,
        total: shareOf(order, benId).total,
      });
    }
    const owed = (await f.as.creator("GET", "/api/balances")).json().balances;
    expect(owed).toEqual([
      expect.objectContaining({
        user: expect.objectContaining({ _id: benId, name: "Ben" }),
        amount:
          Math.round(
            (shareOf(first.order, benId).total + shareOf(second.order, benId).total) * 100,
          ) / 100,
      }),
    ]);

    // Ann settles one in cash and writes the other off: balances clear, the log says how.
    for (const [{ order, sessionId }, how] of [
      [first, "cash"],
      [second, "written_off"],
    ] as const) {
      const settled = await f.as.creator("POST", `/api/orders/${order._id}/confirm/${benId}`, {
        how,
      });
      expect(settled.statusCode, settled.body).toBe(200);
      expect(shareOf(settled.json().order, benId)).toMatchObject({
        status: "confirmed",
        settledAs: how,
        confirmedAt: expect.any(String),
      });
      const entries = (await f.as.creator("GET", `/api/sessions/${sessionId}/activity`)).json()
        .events;
      expect(entries.at(-1)).toMatchObject({
        type: "order.confirmed",
        actor: { _id: f.people.creator.userId, name: "Ann" },
        orderId: order._id,
        member: "Ben",
        memberId: benId,
        amount: shareOf(order, benId).total,
        how,
      });
    }
    expect((await f.as.creator("GET", "/api/balances")).json().balances).toEqual([]);
  });
});
