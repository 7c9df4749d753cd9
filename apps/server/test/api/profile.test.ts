import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { profiles } from "../../src/db/schema.ts";
import {
  client,
  createTestApp,
  latestCode,
  PASSWORD,
  sessionWithEveryRole,
  signUp,
  uniqueEmail,
  type TestApp,
} from "../helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

function form(fields: Record<string, string>, file?: { name: string; type: string; data: Buffer }) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  if (file) body.append("avatar", new Blob([file.data], { type: file.type }), file.name);
  return body;
}
const postProfile = (token: string, body: FormData) =>
  t.app.inject({
    method: "POST",
    url: "/api/profile/me",
    headers: { authorization: `Bearer ${token}` },
    payload: body,
  });

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#4f46e5" } })
    .png()
    .toBuffer();

describe("GET /api/profile/me", () => {
  it("creates an empty profile on first read", async () => {
    const ann = await signUp(t, "Ann");
    const res = await client(t, ann.token)("GET", "/api/profile/me");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      bio: "",
      location: "",
      languages: [],
      occupation: "",
      phoneNumber: "",
      avatar: `http://localhost:3000/api/users/${ann.userId}/avatar`,
      user: { _id: ann.userId, name: "Ann", email: ann.email },
      sessions: [],
      carts: [],
    });
    expect(
      await t.database.db.select().from(profiles).where(eq(profiles.userId, ann.userId)),
    ).toHaveLength(1);
  });

  it("lists my sessions and carts with item counts", async () => {
    const f = await sessionWithEveryRole(t);
    const [p] = (await f.as.creator("GET", "/api/products?limit=1")).json().products;
    await f.as.participant("POST", `/api/carts/${f.cartId}/product`, {
      productId: p._id,
      quantity: 2,
    });
    const profile = (await f.as.participant("GET", "/api/profile/me")).json();
    expect(profile.sessions).toEqual([
      { _id: f.sessionId, sessionName: "Weekend groceries", status: "active" },
    ]);
    expect(profile.carts).toEqual([
      {
        _id: f.cartId,
        sessionId: { _id: f.sessionId, sessionName: "Weekend groceries" },
        itemCount: 2,
        status: "active",
      },
    ]);
    expect((await f.as.pending("GET", "/api/profile/me")).json().sessions).toEqual([]);
  });
});

describe("POST /api/profile/me", () => {
  it("changes only the fields sent; languages is a JSON list; name changes the user", async () => {
    const ann = await signUp(t, "Ann");
    const first = await postProfile(
      ann.token,
      form({ bio: "I love markets", languages: '["English", " French "]' }),
    );
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      bio: "I love markets",
      languages: ["English", "French"],
      location: "",
    });
    const second = await postProfile(ann.token, form({ location: "Lyon", name: "Ann B." }));
    const validated = await client(t, ann.token)("GET", "/api/auth/validate-token");
    expect(validated.json().user.name).toBe("Ann B.");
    expect(second.json()).toMatchObject({
      bio: "I love markets",
      languages: ["English", "French"],
      location: "Lyon",
      user: { name: "Ann B." },
    });
  });

  it("re-encodes an avatar to a 256 px WebP without metadata and serves it", async () => {
    const ann = await signUp(t, "Ann");
    const withExif = await sharp(await png(600, 400))
      .jpeg()
      .withMetadata({ exif: { IFD0: { Artist: "Secret Name" } } })
      .toBuffer();
    const res = await postProfile(
      ann.token,
      form({}, { name: "me.jpg", type: "image/jpeg", data: withExif }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const url = res.json().avatar as string;
    expect(url).toMatch(
      new RegExp(`^http://localhost:3000/api/users/${ann.userId}/avatar\\?v=\\d+$`),
    );
    const img = await t.app.inject({ method: "GET", url });
    expect(img.statusCode).toBe(200);
    expect(img.headers["content-type"]).toBe("image/webp");
    expect(img.headers["cache-control"]).toContain("immutable");
    const meta = await sharp(img.rawPayload).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 256, height: 256 });
    expect(meta.exif).toBeUndefined();
    expect(img.rawPayload.includes(Buffer.from("Secret Name"))).toBe(false);
  });

  it("redirects to the generated avatar when none was uploaded", async () => {
    const ann = await signUp(t);
    const res = await t.app.inject({ method: "GET", url: `/api/users/${ann.userId}/avatar` });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`/api/avatars/${ann.userId}.svg`);
  });

  it.each([
    [
      "a text file named .png",
      { name: "cat.png", type: "image/png", data: Buffer.from("just some text, not an image") },
      415,
    ],
    [
      "an SVG",
      {
        name: "x.svg",
        type: "image/svg+xml",
        data: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
        ),
      },
      415,
    ],
    [
      "a file over 5 MB",
      { name: "big.png", type: "image/png", data: Buffer.alloc(5 * 1024 * 1024 + 10, 7) },
      413,
    ],
  ])("refuses %s and changes nothing", async (_label, file, status) => {
    const ann = await signUp(t);
    const res = await postProfile(ann.token, form({ bio: "should not be saved" }, file));
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ message: expect.any(String), code: expect.any(String) });
    expect((await client(t, ann.token)("GET", "/api/profile/me")).json().bio).toBe("");
  });

  it("refuses a decompression bomb (a small file declaring too many pixels) without decoding it", async () => {
    const bomb = await sharp({
      create: { width: 5000, height: 5000, channels: 3, background: "#000" },
    })
      .png({ compressionLevel: 9, palette: true })
      .toBuffer();
    expect(bomb.length).toBeLessThan(200_000);
    const ann = await signUp(t);
    const res = await postProfile(
      ann.token,
      form({}, { name: "bomb.png", type: "image/png", data: bomb }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.avatar).toMatch(/4096/);
  });

  it("refuses unknown fields, bad languages and a JSON body", async () => {
    const ann = await signUp(t);
    expect((await postProfile(ann.token, form({ role: "admin" }))).statusCode).toBe(400);
    expect((await postProfile(ann.token, form({ languages: "English, French" }))).statusCode).toBe(
      400,
    );
    const json = await client(t, ann.token)("POST", "/api/profile/me", { bio: "x" });
    expect(json.statusCode).toBe(415);
  });
});

describe("GET /api/users/:id", () => {
  it("shows people who share a session, and 404 to others", async () => {
    const f = await sessionWithEveryRole(t);
    const res = await f.as.participant("GET", `/api/users/${f.people.creator.userId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ _id: f.people.creator.userId, name: "Ann" });
    expect(Object.keys(res.json().user).sort()).toEqual(["_id", "avatar", "joinedAt", "name"]);
    expect((await f.as.stranger("GET", `/api/users/${f.people.creator.userId}`)).statusCode).toBe(
      404,
    );
    expect((await f.as.pending("GET", `/api/users/${f.people.creator.userId}`)).statusCode).toBe(
      404,
    );
  });
});

describe("PATCH /api/auth/update-credentials", () => {
  const patch = (token: string, body: object) =>
    t.app.inject({
      method: "PATCH",
      url: "/api/auth/update-credentials",
      headers: { authorization: `Bearer ${token}` },
      payload: body,
    });
  const verify = (userId: string, code: string) =>
    t.app.inject({ method: "POST", url: "/api/auth/verify-otp", payload: { userId, code } });
  const login = (email: string, password: string) =>
    t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password } });
  const valid = (token: string) =>
    t.app.inject({
      method: "GET",
      url: "/api/auth/validate-token",
      headers: { authorization: `Bearer ${token}` },
    });

  it("changes the password only after the code, and signs out the other devices", async () => {
    const ann = await signUp(t, "Ann");
    t.clock.advance(61_000);
    const res = await patch(ann.token, { password: "new-meadow-88", currentPassword: PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: expect.stringMatching(/OTP/), userId: ann.userId });
    // Not changed yet.
    t.clock.advance(61_000);
    expect((await login(ann.email, PASSWORD)).statusCode).toBe(200);
    // The login above replaced the update code: ask again, then verify.
    t.clock.advance(61_000);
    await patch(ann.token, { password: "new-meadow-88", currentPassword: PASSWORD });
    const done = await verify(ann.userId, await latestCode(t.database, ann.email));
    expect(done.statusCode).toBe(200);
    expect(done.json().purpose).toBe("update");
    expect((await valid(ann.token)).statusCode).toBe(401);
    expect((await valid(done.json().token)).statusCode).toBe(200);
    t.clock.advance(61_000);
    expect((await login(ann.email, PASSWORD)).statusCode).toBe(401);
    expect((await login(ann.email, "new-meadow-88")).statusCode).toBe(200);
  });

  it("sends an email change's code to the new address and tells the old one", async () => {
    const ann = await signUp(t, "Ann");
    const newEmail = uniqueEmail("moved");
    t.clock.advance(61_000);
    const res = await patch(ann.token, { email: newEmail, currentPassword: PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    const code = await latestCode(t.database, newEmail);
    const { devMails } = await import("../../src/db/schema.ts");
    const notices = await t.database.db
      .select()
      .from(devMails)
      .where(eq(devMails.recipient, ann.email));
    expect(
      notices.some((m) => m.subject.includes("about to change") && m.text.includes(newEmail)),
    ).toBe(true);
    const done = await verify(ann.userId, code);
    expect(done.json().user.email).toBe(newEmail);
    expect((await valid(ann.token)).statusCode).toBe(401);
  });

  it("requires the right current password and something to change; refuses a taken email", async () => {
    const ann = await signUp(t, "Ann");
    const bob = await signUp(t, "Bob");
    t.clock.advance(61_000);
    const wrong = await patch(ann.token, { password: "new-meadow-88", currentPassword: "not-it" });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().fields.currentPassword).toBeDefined();
    expect((await patch(ann.token, { currentPassword: PASSWORD })).statusCode).toBe(400);
    expect(
      (await patch(ann.token, { password: "12345", currentPassword: PASSWORD })).statusCode,
    ).toBe(400);
    expect(
      (await patch(ann.token, { email: bob.email, currentPassword: PASSWORD })).statusCode,
    ).toBe(409);
    expect(
      (
        await patch(ann.token, {
          password: "x".repeat(8),
          currentPassword: PASSWORD,
          role: "admin",
        })
      ).statusCode,
    ).toBe(400);
  });
});
