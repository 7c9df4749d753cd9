import { expect, test } from "@playwright/test";
import { enterCode, newUser, readCode, registerViaUi, signUp } from "./fixtures.ts";

test("a new user registers, reads the code, verifies and lands signed in", async ({ page }) => {
  const user = newUser("Ann");
  await registerViaUi(page, user);
  await expect(page.getByText(user.email)).toBeVisible();
  const code = await readCode(page.request, user.email);
  await enterCode(page, code);

  // A fresh account goes on to the profile editor (purpose "register").
  await expect(page).toHaveURL(/\/editme$/);
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: /Welcome, Ann/ })).toBeVisible();
  for (const name of ["Home", "Explore Marketplace", "Sessions", "My Cart"]) {
    await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
  }
  expect(await page.evaluate(() => localStorage.getItem("token"))).toBeTruthy();
  expect(await page.evaluate(() => localStorage.getItem("userId"))).toBeNull();
});

test("an existing user signs in with a code and lands on the home page", async ({
  page,
  browser,
}) => {
  const user = newUser("Ben");
  // Register in a separate browser, as if on another device.
  const other = await browser.newPage();
  await signUp(other, user);
  await other.close();

  await page.goto("/login");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/verify-otp$/);
  // The login code is a second mail, after the registration code.
  await expect
    .poll(async () => {
      const res = await page.request.get("/dev/mailbox", {
        headers: { accept: "application/json" },
      });
      const { mails } = await res.json();
      return mails.filter((m: { to: string }) => m.to === user.email).length;
    })
    .toBe(2);
  await enterCode(page, await readCode(page.request, user.email));
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: /Welcome, Ben/ })).toBeVisible();
});

test("a wrong password shows SPEC's sign-in failure toast", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill("nobody@example.com");
  await page.getByLabel("Password").fill("not-my-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText("Signin failed: Invalid email or password").first()).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test("a wrong code shows the server's message", async ({ page }) => {
  const user = newUser("Cy");
  await registerViaUi(page, user);
  const code = await readCode(page.request, user.email);
  const wrong = code === "000000" ? "111111" : "000000";
  await enterCode(page, wrong);
  await expect(page.getByText("Invalid or expired code").first()).toBeVisible();
  await expect(page).toHaveURL(/\/verify-otp$/);
});

test("the code field takes digits only, at most 6", async ({ page }) => {
  const user = newUser("Di");
  await registerViaUi(page, user);
  const input = page.getByLabel("Verification code");
  await input.pressSequentially("12ab34-5678");
  await expect(input).toHaveValue("123456");
  await expect(page.getByRole("button", { name: /Resend code in/ })).toBeDisabled();
});

test("logout clears the session, says goodbye and goes to /login", async ({ page }) => {
  await signUp(page, newUser("Eve"));
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page.getByText("You've logged out successfully. See you soon, Eve!")).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
  await expect(page.getByRole("link", { name: "Become a cartner today" })).toBeVisible();
});

test("a protected route sends a signed-out visitor to the landing page", async ({ page }) => {
  await page.goto("/sessions");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: "Start Session" })).toBeVisible();
});

test("a revoked token logs the user out on the next route change", async ({ page }) => {
  await signUp(page, newUser("Fay"));
  const token = await page.evaluate(() => localStorage.getItem("token"));
  const res = await page.request.post("/api/auth/logout", {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(204);
  // The 5 s session sync may notice the dead token first and sign out before the click: either
  // way the user must end up on /login.
  await page
    .getByRole("link", { name: "Sessions", exact: true })
    .click({ timeout: 5_000 })
    .catch(() => {});
  await expect(page).toHaveURL(/\/login$/);
});

test("unknown paths show the Page Not Found page with a link home", async ({ page }) => {
  await page.goto("/no/such/page");
  await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
  await page.getByRole("link", { name: /home/i }).last().click();
  await expect(page).toHaveURL(/\/$/);
});

test("signed out, the hero form saves the session and asks to sign in", async ({ page }) => {
  await page.goto("/");
  const start = page.getByRole("button", { name: "Start Session" });
  await expect(start).toBeDisabled();
  await page.getByLabel("Session Name").fill("  Weekend groceries  ");
  await page.getByLabel("Session Type").selectOption("Friends");
  await expect(start).toBeEnabled();
  await start.click();
  await expect(page.getByText("Please sign in to create a session")).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  const saved = JSON.parse(
    (await page.evaluate(() => localStorage.getItem("pendingSession"))) ?? "{}",
  );
  expect(saved).toMatchObject({ sessionName: "Weekend groceries", sessionType: "Friends" });
});
