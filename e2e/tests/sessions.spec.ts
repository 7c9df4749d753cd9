import crypto from "node:crypto";
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import {
  enterCode,
  expectNoA11yViolations,
  newUser,
  readCode,
  registerViaUi,
  signUp,
  watchConsole,
  type TestUser,
} from "./fixtures.ts";

interface Person {
  user: TestUser;
  context: BrowserContext;
  page: Page;
  problems: string[];
}

/** Someone signed up and signed in, in their own browser context. */
async function person(browser: Browser, name: string): Promise<Person> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = watchConsole(page);
  const user = await signUp(page, newUser(name));
  return { user, context, page, problems };
}

function activePanel(page: Page) {
  return page.getByRole("tabpanel", { name: "Active" });
}

/** A row of the lobby's Participants list, found by the member's name ("Ann" or "Ann (you)"). */
function memberRow(page: Page, name: string) {
  return page
    .getByRole("list", { name: /^Participants/ })
    .getByRole("listitem")
    .filter({ has: page.getByText(new RegExp(`^${name}( \\(you\\))?$`)) });
}

test("a session from creation to its end: join by code, approve, invite, accept, leave, end", async ({
  browser,
}) => {
  const [ann, ben, cleo] = await Promise.all([
    person(browser, "Ann"),
    person(browser, "Ben"),
    person(browser, "Cleo"),
  ]);
  const sessionName = `Weekend groceries ${crypto.randomBytes(3).toString("hex")}`;
  const passcode = "sesame-42";

  // Ann creates a session with a passcode and a budget on /sessions.
  await ann.page.goto("/sessions");
  const create = ann.page.getByRole("form", { name: "Create a session" });
  await create.getByLabel("Session Name").fill(sessionName);
  await create.getByLabel("Session Type").selectOption("Friends");
  await create.getByLabel("Passcode").fill(passcode);
  await create.getByLabel("Budget").fill("150");
  await create.getByRole("button", { name: "Create Session" }).click();
  await expect(ann.page).toHaveURL(/\/session\/[0-9a-f-]{36}$/);
  const sessionId = new URL(ann.page.url()).pathname.split("/").pop()!;
  await expect(ann.page.getByRole("heading", { level: 1, name: sessionName })).toBeVisible();
  await expect(ann.page.getByText("Session created").first()).toBeVisible();
  // The new session is the one Ann is shopping on.
  await expect(ann.page.getByLabel("You're currently shopping on:")).toHaveValue(sessionId);
  await expect(ann.page.getByText(passcode)).toBeVisible();
  const invite = ann.page.getByRole("form", { name: "Invite someone" });
  const sessionCode = await invite.getByLabel("Session Code").inputValue();
  expect(sessionCode).toMatch(/^[A-Z0-9]{8}$/);

  // Ben asks to join with the code and passcode.
  await ben.page.goto("/sessions");
  const join = ben.page.getByRole("form", { name: "Join a session" });
  const joinButton = join.getByRole("button", { name: "Join Session" });
  await expect(joinButton).toBeDisabled();
  await join.getByLabel("Session Code").fill(` ${sessionCode} `);
  await expect(joinButton).toBeDisabled();
  await join.getByLabel("Passcode").fill(passcode);
  await joinButton.click();
  await expect(ben.page.getByText("Join request sent").first()).toBeVisible();
  // Not a member yet: the lobby is not his to see.
  await ben.page.goto(`/session/${sessionId}`);
  await expect(
    ben.page.getByRole("heading", { level: 1, name: "Session not found" }),
  ).toBeVisible();

  // Ann approves him from Pending Join Requests (the list refreshes by itself).
  await ann.page.getByRole("button", { name: "Accept Ben" }).click();
  await expect(ann.page.getByText("Join request approved").first()).toBeVisible();
  await expect(memberRow(ann.page, "Ben")).toBeVisible();
  await expect(ann.page.getByText("No pending join requests.")).toBeVisible();

  // Ben now sees the lobby, with Ann as its creator and the passcode (he is a participant).
  await ben.page.goto(`/session/${sessionId}`);
  await expect(ben.page.getByRole("heading", { level: 1, name: sessionName })).toBeVisible();
  await expect(memberRow(ben.page, "Ann")).toContainText("Creator");
  await expect(ben.page.getByText(passcode)).toBeVisible();
  await expect(ben.page.getByRole("button", { name: "End Session" })).toHaveCount(0);
  await expect(ben.page.getByRole("form", { name: "Invite someone" })).toHaveCount(0);

  // Ann invites Cleo by email as a viewer.
  await invite.getByLabel("Email or Username").fill(cleo.user.email);
  await invite.getByLabel("Role").selectOption("viewer");
  await invite.getByRole("button", { name: "Send Invite" }).click();
  await expect(ann.page.getByText(`Invite sent to ${cleo.user.email}`).first()).toBeVisible();

  // Cleo accepts the invite on /sessions and lands in the lobby, where the passcode is hidden.
  await cleo.page.goto("/sessions");
  await cleo.page.getByRole("button", { name: `Accept ${sessionName}` }).click();
  await expect(cleo.page.getByText("Invite accepted! Redirecting...").first()).toBeVisible();
  await expect(cleo.page).toHaveURL(new RegExp(`/session/${sessionId}$`));
  await expect(cleo.page.getByRole("heading", { level: 1, name: sessionName })).toBeVisible();
  await expect(memberRow(cleo.page, "Cleo")).toContainText("Viewer");
  await expect(cleo.page.getByText(passcode)).toHaveCount(0);
  await expect(cleo.page.getByRole("button", { name: "Add Items" })).toHaveCount(0);

  // Ben leaves: back on /sessions, and the session is gone from his Active tab.
  await ben.page.getByRole("button", { name: "Leave Session" }).click();
  await ben.page
    .getByRole("dialog", { name: "Leave this session?" })
    .getByRole("button", { name: "Leave Session" })
    .click();
  await expect(ben.page).toHaveURL(/\/sessions$/);
  await expect(ben.page.getByText("You left the session").first()).toBeVisible();
  await expect(
    activePanel(ben.page).getByRole("heading", { name: "You have (0) active Sessions" }),
  ).toBeVisible();
  await expect(activePanel(ben.page).getByRole("article", { name: sessionName })).toHaveCount(0);
  await expect(ben.page.getByLabel("You're currently shopping on:")).toHaveCount(0);
  await expect(memberRow(ann.page, "Ben")).toHaveCount(0);

  // Ann ends the session: it moves to Past with an Ended badge, and its lobby says Ended.
  await ann.page.getByRole("button", { name: "End Session" }).click();
  await ann.page
    .getByRole("dialog", { name: `End “${sessionName}”?` })
    .getByRole("button", { name: "End Session" })
    .click();
  await expect(ann.page).toHaveURL(/\/sessions$/);
  await expect(ann.page.getByText("Session ended").first()).toBeVisible();
  await expect(activePanel(ann.page).getByRole("article", { name: sessionName })).toHaveCount(0);
  await ann.page.getByRole("tab", { name: "Past" }).click();
  const card = ann.page
    .getByRole("tabpanel", { name: "Past" })
    .getByRole("article", { name: sessionName });
  await expect(card).toContainText("Ended");
  await card.getByRole("link", { name: `View ${sessionName}` }).click();
  await expect(ann.page.getByRole("heading", { level: 1, name: sessionName })).toBeVisible();
  await expect(ann.page.getByText("Ended", { exact: true })).toBeVisible();
  await expect(ann.page.getByRole("button", { name: "End Session" })).toHaveCount(0);

  for (const who of [ann, ben, cleo]) {
    expect(who.problems, who.user.name).toEqual([]);
    await who.context.close();
  }
});

/** The sessions page's list of my join requests still waiting. */
function waitingSection(page: Page) {
  return page.getByRole("region", { name: "Waiting for approval" });
}

/** Asks to join on /sessions with the join form. */
async function askToJoin(page: Page, sessionCode: string, passcode: string) {
  const join = page.getByRole("form", { name: "Join a session" });
  await join.getByLabel("Session Code").fill(sessionCode);
  await join.getByLabel("Passcode").fill(passcode);
  await join.getByRole("button", { name: "Join Session" }).click();
}

test("a join request waits on the sessions page, is withdrawn, declined and accepted live @phone", async ({
  browser,
}, testInfo) => {
  const [ann, ben] = await Promise.all([person(browser, "Ann"), person(browser, "Ben")]);
  const sessionName = `Family shop ${crypto.randomBytes(3).toString("hex")}`;
  const passcode = "sesame-42";

  // Ann's session, and its lobby open with the Pending Join Requests panel.
  await ann.page.goto("/sessions");
  const create = ann.page.getByRole("form", { name: "Create a session" });
  await create.getByLabel("Session Name").fill(sessionName);
  await create.getByLabel("Session Type").selectOption("Family");
  await create.getByLabel("Passcode").fill(passcode);
  await create.getByRole("button", { name: "Create Session" }).click();
  await expect(ann.page).toHaveURL(/\/session\/[0-9a-f-]{36}$/);
  const sessionId = new URL(ann.page.url()).pathname.split("/").pop()!;
  const sessionCode = await ann.page
    .getByRole("form", { name: "Invite someone" })
    .getByLabel("Session Code")
    .inputValue();

  // Ben asks: the request shows at once under Waiting for approval, with Ann as its creator, and
  // the empty Active tab says it is on its way.
  await ben.page.goto("/sessions");
  await expect(waitingSection(ben.page)).toHaveCount(0);
  await askToJoin(ben.page, sessionCode, passcode);
  await expect(ben.page.getByText("Join request sent").first()).toBeVisible();
  const request = waitingSection(ben.page).getByRole("listitem").filter({ hasText: sessionName });
  await expect(request).toContainText("Ann's session · asked");
  await expect(
    activePanel(ben.page).getByText(`Your request to join ${sessionName} is waiting for approval.`),
  ).toBeVisible();
  const shot = (name: string) =>
    ben.page.screenshot({ path: `/tmp/wt-b-${name}-${testInfo.project.name}.png` });
  await ben.page.screenshot({
    path: `/tmp/wt-b-waiting-${testInfo.project.name}.png`,
    fullPage: true,
  });
  await request.scrollIntoViewIfNeeded();
  await shot("waiting-view");

  await expectNoA11yViolations(ben.page, "/sessions with a request waiting");

  // He withdraws it from the keyboard (no confirmation): focus moves to the section's heading.
  await request.getByRole("button", { name: `Withdraw request to join ${sessionName}` }).focus();
  await ben.page.keyboard.press("Enter");
  await expect(ben.page.getByText("Request withdrawn").first()).toBeVisible();
  await expect(waitingSection(ben.page).getByText("No requests waiting.")).toBeVisible();
  await expect(
    waitingSection(ben.page).getByRole("heading", { name: "Waiting for approval" }),
  ).toBeFocused();
  await shot("withdrawn");
  // He asks again.
  await askToJoin(ben.page, sessionCode, passcode);
  await expect(request).toBeVisible();

  // Ann rejects it in her lobby: Ben is told at once, without reloading.
  await ann.page.getByRole("button", { name: "Reject Ben" }).click();
  await expect(ann.page.getByText("Join request rejected").first()).toBeVisible();
  await expect(
    ben.page.getByText(`Your request to join ${sessionName} was declined`),
  ).toBeVisible();
  await expect(request).toHaveCount(0);
  await shot("declined");

  // He asks again; Ann accepts: Ben is told, the session is in his Active tab, and the toast's
  // link opens its lobby.
  await askToJoin(ben.page, sessionCode, passcode);
  await expect(request).toBeVisible();
  await ann.page.getByRole("button", { name: "Accept Ben" }).click();
  await expect(ann.page.getByText("Join request approved").first()).toBeVisible();
  const accepted = ben.page
    .getByText(`Ann accepted your request to join ${sessionName}`)
    .filter({ has: ben.page.getByRole("link") });
  await expect(accepted).toBeVisible();
  // Ben rests the pointer on the toast, which holds it open while he looks.
  await accepted.hover();
  await shot("accepted");
  await expect(request).toHaveCount(0);
  await expect(activePanel(ben.page).getByRole("article", { name: sessionName })).toBeVisible();
  await accepted.getByRole("link", { name: "Open the session" }).click();
  await expect(ben.page).toHaveURL(new RegExp(`/session/${sessionId}$`));
  await expect(ben.page.getByRole("heading", { level: 1, name: sessionName })).toBeVisible();
  await expect(memberRow(ben.page, "Ben")).toContainText("Participant");

  for (const who of [ann, ben]) {
    expect(who.problems, who.user.name).toEqual([]);
    await who.context.close();
  }
});

test("a session filled in while signed out is created right after sign-up", async ({ page }) => {
  const problems = watchConsole(page);
  const sessionName = `Picnic ${crypto.randomBytes(3).toString("hex")}`;
  await page.goto("/");
  const hero = page.getByRole("form", { name: "Create a session" });
  await hero.getByLabel("Session Name").fill(sessionName);
  await hero.getByLabel("Session Type").selectOption("Family");
  await hero.getByLabel("Passcode").fill("basket");
  await hero.getByRole("button", { name: "Start Session" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("Please sign in to create a session").first()).toBeVisible();

  const user = newUser("Dee");
  await registerViaUi(page, user);
  await enterCode(page, await readCode(page.request, user.email));

  await expect(page).toHaveURL(/\/sessions$/);
  await expect(activePanel(page).getByRole("article", { name: sessionName })).toBeVisible();
  await expect(
    activePanel(page).getByRole("heading", { name: "You have (1) active Sessions" }),
  ).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("pendingSession"))).toBeNull();
  expect(problems).toEqual([]);
});

test("the sessions page and a lobby have no serious accessibility violations", async ({ page }) => {
  await signUp(page, newUser("Eve"));
  await page.goto("/sessions");
  const create = page.getByRole("form", { name: "Create a session" });
  await create.getByLabel("Session Name").fill("Accessible shopping");
  await create.getByLabel("Session Type").selectOption("Solo");
  await create.getByRole("button", { name: "Create Session" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Accessible shopping" })).toBeVisible();
  for (const ready of ["No pending join requests.", "No invites yet."]) {
    if (ready === "No invites yet.") await page.goto("/sessions");
    await expect(page.getByText(ready)).toBeVisible();
    await expectNoA11yViolations(page);
  }
});
