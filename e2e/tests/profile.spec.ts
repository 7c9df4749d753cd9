import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { enterCode, expectNoA11yViolations, newUser, readCode, signUp } from "./fixtures.ts";

/** A small valid PNG (solid indigo, 64 x 64), built here so the test needs no fixture file. */
function pngFile(): string {
  const size = 64;
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3, Buffer.from([79, 70, 229]))]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  const png = Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", pixels),
    chunk("IEND", Buffer.alloc(0)),
  ]);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cartner-avatar-")), "avatar.png");
  fs.writeFileSync(file, png);
  return file;
}

async function mailCount(request: APIRequestContext, email: string): Promise<number> {
  const res = await request.get("/dev/mailbox", { headers: { accept: "application/json" } });
  const { mails } = (await res.json()) as { mails: Array<{ to: string }> };
  return mails.filter((m) => m.to === email).length;
}

test("a new user fills in the profile, changes the password and signs in with it", async ({
  page,
}) => {
  const user = await signUp(page, newUser("Ann"));
  await expect(page).toHaveURL(/\/editme$/);
  await expect(page.getByRole("heading", { level: 1, name: "Edit Profile" })).toBeVisible();
  await expectNoA11yViolations(page);

  // Only ticked fields are editable and sent; a new user's empty fields start ticked.
  const bio = page.getByLabel("Bio", { exact: true });
  await expect(bio).toBeEnabled();
  await expect(page.getByRole("checkbox", { name: "Update bio" })).toBeChecked();
  await expect(page.getByLabel("Name", { exact: true })).toBeDisabled();
  await bio.fill("I organise the weekly groceries.");
  await page.getByRole("checkbox", { name: "Update languages" }).check();
  await page.getByLabel("Languages", { exact: true }).fill(" English, , French ");
  await page.getByRole("checkbox", { name: "Update avatar" }).check();
  await page.getByLabel("Avatar", { exact: true }).setInputFiles(pngFile());
  await expect(page.getByRole("img", { name: "Preview of your new avatar" })).toBeVisible();
  await page.getByRole("button", { name: "Save changes" }).click();

  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByText("Profile updated successfully!")).toBeVisible();
  await expect(
    page.getByRole("heading", { level: 1, name: `Welcome Back ${user.name}!` }),
  ).toBeVisible();
  await expect(page.getByText("I organise the weekly groceries.")).toBeVisible();
  await expect(page.getByText("English, French")).toBeVisible();
  await expect(page.getByText(`Joined in ${new Date().getFullYear()}`)).toBeVisible();
  const avatar = page.getByRole("img", { name: `${user.name}'s avatar` });
  await expect(avatar).toBeVisible();
  await expect
    .poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  await expectNoA11yViolations(page);

  // Change the password: the code goes to the same address.
  await page.getByRole("link", { name: /change email or password/i }).click();
  await expect(page).toHaveURL(/\/editpass$/);
  await expect(page.getByRole("checkbox", { name: "Change Password" })).toBeVisible();
  await expectNoA11yViolations(page);
  await page.getByRole("checkbox", { name: "Change Password" }).check();
  await page.getByLabel("Current password").fill(user.password);
  await page.getByLabel("New password").fill("fresh-lemon-77");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/verify-otp$/);
  await expect(
    page.getByText("OTP sent to your email. Verify to complete password change."),
  ).toBeVisible();
  await expect.poll(() => mailCount(page.request, user.email)).toBe(2);
  await enterCode(page, await readCode(page.request, user.email));
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByText("Password updated successfully.")).toBeVisible();

  // Log out, then sign in with the new password (and its code).
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("button", { name: "Logout" })
    .click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill("fresh-lemon-77");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/verify-otp$/);
  await expect.poll(() => mailCount(page.request, user.email)).toBe(3);
  await enterCode(page, await readCode(page.request, user.email));
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: /Welcome, Ann/ })).toBeVisible();
});
