import { auditPage, expect, signIn, state, test } from "./fixtures";

// Issue 17: a member added by an admin gets a one-time password and must choose their own at
// first sign-in; changing a password later signs out the user's other browsers.

test("a one-time password is replaced at first sign-in; a change ends other sessions", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const email = `first.login.${Date.now()}@hangar.test`;
  await signIn(page, state.admin);
  await page.goto("/settings/members");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Add member" }).click();
  const oneTime = await page
    .getByRole("dialog", { name: "Account created" })
    .getByLabel("Initial password")
    .inputValue();

  const member = await browser.newContext({ baseURL: state.baseUrl });
  const first = await member.newPage();
  await first.goto("/signin");
  await first.getByLabel("Email").fill(email);
  await first.getByLabel("Password").fill(oneTime);
  await first.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(first).toHaveURL(/\/change-password$/);
  await expect(first.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  // The dashboard waits until a new password is set.
  await first.goto("/deployments");
  await expect(first).toHaveURL(/\/change-password$/);
  await auditPage(first, "account-forced-change");

  await first.getByLabel("Current password").fill("not-the-password");
  await first.getByLabel("New password", { exact: true }).fill("my-own-password-1");
  await first.getByLabel("Confirm new password").fill("my-own-password-1");
  await first.getByRole("button", { name: "Change password" }).click();
  await expect(first.getByText("The current password is not correct.")).toBeVisible();
  await first.getByLabel("Current password").fill(oneTime);
  await first.getByRole("button", { name: "Change password" }).click();
  await expect(first).toHaveURL(/\/deployments$/);

  // A second browser signs in with the new password; changing it again from Settings > Account
  // in the first one signs the second out.
  const other = await browser.newContext({ baseURL: state.baseUrl });
  const second = await other.newPage();
  await signIn(second, { email, password: "my-own-password-1" });

  await first.getByRole("button", { name: `Account: ${email}` }).click();
  await first.getByRole("link", { name: "Change password" }).click();
  await expect(first).toHaveURL(/\/settings\/account$/);
  await auditPage(first, "settings-account");
  await first.getByLabel("Current password").fill("my-own-password-1");
  await first.getByLabel("New password", { exact: true }).fill("my-newer-password-2");
  await first.getByLabel("Confirm new password").fill("my-newer-password-2");
  await first.getByRole("button", { name: "Change password" }).click();
  await expect(first.getByText("1 other session was signed out")).toBeVisible();

  await second.goto("/deployments");
  await expect(second).toHaveURL(/\/signin/);
  await first.goto("/deployments");
  await expect(first).toHaveURL(/\/deployments$/);
  await member.close();
  await other.close();
});
