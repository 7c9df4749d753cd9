/**
 * Each account's time zone (PGlite and PostgreSQL): GET /profile/me answers it ("UTC" until
 * set), PUT /users/me/time-zone chooses it (200, a 400 naming `timeZone` for an unknown zone,
 * 401 without a token), a sign-in takes the browser's until the person chose one, the export
 * has it; and what is sent to a person states times in it, named: a reminder's mail and its
 * notification, the receipt, the CSV.
 */
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devMails } from "../../src/db/schema.ts";
import {
  PASSWORD,
  client,
  createTestApp,
  filledSession,
  latestCode,
  signUp,
  uniqueEmail,
  type TestApp,
} from "../helpers.ts";
import { pdfText } from "../pdf-text.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const zoneOf = async (token: string) =>
  (await client(t, token)("GET", "/api/profile/me")).json().timeZone as string;

/** "21:25 (Europe/Berlin)": the wall time of `at` there, as the server writes it. */
const wallTime = (at: string | Date, timeZone: string) =>
  `${new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(new Date(at))} (${timeZone})`;

describe("PUT /api/users/me/time-zone", () => {
  it("sets the zone (its canonical name) and GET /profile/me answers it; UTC until then", async () => {
    const ann = await signUp(t, "Ann");
    expect(await zoneOf(ann.token)).toBe("UTC");
    const as = client(t, ann.token);
    const res = await as("PUT", "/api/users/me/time-zone", { timeZone: "europe/berlin" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ timeZone: "Europe/Berlin" });
    expect(await zoneOf(ann.token)).toBe("Europe/Berlin");
    expect((await as("PUT", "/api/users/me/time-zone", { timeZone: "UTC" })).json()).toEqual({
      timeZone: "UTC",
    });
    const exported = (await as("GET", "/api/users/me/export")).json();
    expect(exported.account).toMatchObject({ timeZone: "UTC", timeZoneChosen: true });
  });

  it("refuses an unknown zone with 400 naming timeZone, and changes nothing", async () => {
    const ben = await signUp(t, "Ben");
    const as = client(t, ben.token);
    await as("PUT", "/api/users/me/time-zone", { timeZone: "Asia/Tokyo" });
    for (const body of [
      { timeZone: "Mars/Olympus" },
      { timeZone: "CET+1" },
      { timeZone: "+02:00" },
      { timeZone: "" },
      { timeZone: 1 },
      {},
    ]) {
      const res = await as("PUT", "/api/users/me/time-zone", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().fields ?? {}), JSON.stringify(body)).toContain("timeZone");
    }
    const extra = await as("PUT", "/api/users/me/time-zone", { timeZone: "UTC", zone: "UTC" });
    expect(extra.statusCode).toBe(400);
    expect(await zoneOf(ben.token)).toBe("Asia/Tokyo");
  });

  it("is 401 without a signed-in user", async () => {
    const res = await t.app.inject({
      method: "PUT",
      url: "/api/users/me/time-zone",
      payload: { timeZone: "Europe/Berlin" },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe("the zone from the browser", () => {
  /** Signs in with a code, the browser naming its zone. */
  async function signIn(email: string, timeZone?: string) {
    const login = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email, password: PASSWORD },
    });
    const { userId } = login.json();
    const code = await latestCode(t.database, email);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/verify-otp",
      payload: { userId, code, ...(timeZone === undefined ? {} : { timeZone }) },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().token as string;
  }

  it("is taken at sign-up and sign-in until the person chooses one; an unknown one is ignored", async () => {
    const email = uniqueEmail("cat");
    const register = await t.app.inject({
      method: "POST",
      url: "/api/auth/register",
      payload: { name: "Cat", email, password: PASSWORD },
    });
    const code = await latestCode(t.database, email);
    const verified = await t.app.inject({
      method: "POST",
      url: "/api/auth/verify-otp",
      payload: { userId: register.json().userId, code, timeZone: "Europe/Vienna" },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(await zoneOf(verified.json().token)).toBe("Europe/Vienna");

    // Travelling: the next sign-in's browser says New York.
    expect(await zoneOf(await signIn(email, "America/New_York"))).toBe("America/New_York");
    // A zone this server does not know never stands in the way of signing in.
    expect(await zoneOf(await signIn(email, "Mars/Olympus"))).toBe("America/New_York");
    expect(await zoneOf(await signIn(email))).toBe("America/New_York");

    // Once chosen in the profile, a sign-in leaves it.
    const token = await signIn(email);
    await client(t, token)("PUT", "/api/users/me/time-zone", { timeZone: "Europe/Berlin" });
    expect(await zoneOf(await signIn(email, "Asia/Tokyo"))).toBe("Europe/Berlin");
  });
});

describe("times sent to a person", () => {
  it("are in their zone, named: a reminder's mail and notification, the receipt and the CSV", async () => {
    const f = await filledSession(t);
    const ben = client(t, f.people.participant.token);
    await ben("PUT", "/api/users/me/time-zone", { timeZone: "Europe/Berlin" });

    // A deadline 10 minutes ahead with the 15-minute reminder: it goes at once, to Ann (UTC)
    // and Ben (Berlin), each in their own zone.
    // The app's clock stands still here (helpers' TestClock): exactly 10 minutes are left.
    const closesAt = new Date(t.clock.now().getTime() + 10 * 60_000);
    const set = await f.as.creator("PUT", `/api/sessions/${f.sessionId}/deadline`, {
      closesAt: closesAt.toISOString(),
      remindAt: [15],
    });
    expect(set.statusCode, set.body).toBe(200);
    await t.app.idle();

    const mailTo = async (email: string) => {
      const [mail] = await t.database.db
        .select()
        .from(devMails)
        .where(eq(devMails.recipient, email))
        .orderBy(desc(devMails.createdAt))
        .limit(1);
      return mail!;
    };
    const benMail = await mailTo(f.people.participant.email);
    expect(benMail.subject).toBe("Weekend groceries: the cart closes in 10 minutes");
    expect(benMail.text).toContain(`at ${wallTime(closesAt, "Europe/Berlin")} on `);
    expect(benMail.text).not.toContain("UTC");
    const annMail = await mailTo(f.people.creator.email);
    expect(annMail.text).toContain(`at ${wallTime(closesAt, "UTC")} on `);

    const bell = (await ben("GET", "/api/notifications")).json().notifications;
    const reminder = bell.find((n: { kind: string }) => n.kind === "reminder");
    expect(reminder.body).toContain(`at ${wallTime(closesAt, "Europe/Berlin")} on `);

    // The receipt and the CSV Ben downloads: on his clock, named; Ann's in UTC.
    const { order } = (await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`)).json();
    const receipt = async (as: typeof ben) =>
      (
        await pdfText(
          new Uint8Array((await as("GET", `/api/orders/${order._id}/receipt.pdf`)).rawPayload),
        )
      ).replace(/\s+/g, " ");
    const day = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/Berlin",
      day: "numeric",
      month: "short",
      year: "numeric",
    }).format(new Date(order.placedAt));
    const benReceipt = await receipt(ben);
    expect(benReceipt).toContain(`Placed ${day}, ${wallTime(order.placedAt, "Europe/Berlin")}`);
    expect(benReceipt).not.toMatch(/UTC|AM|PM/);
    expect(await receipt(f.as.creator)).toContain(`${wallTime(order.placedAt, "UTC")} by Ann`);

    const csv = (await ben("GET", `/api/orders/${order._id}/export.csv`)).body;
    const placed = csv.split("\r\n")[1]!.split(",")[1]!;
    expect(placed).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[12]:00$/);
    expect(Date.parse(placed)).toBe(Math.floor(Date.parse(order.placedAt) / 1000) * 1000);
  });
});
