import { auditPage, expect, signIn, state, test } from "./fixtures";

test("signed-out visitors are sent to sign in", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/signin$/);
  await page.goto("/deployments");
  await expect(page).toHaveURL(/\/signin/);
  await expect(page.getByRole("heading", { name: "Sign in to Hangar" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign in with SSO" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "API reference" })).toHaveAttribute(
    "href",
    "/openapi.json",
  );
  await auditPage(page, "signin");
});

test("the audit fails a page with a serious violation, in either theme", async ({ page }) => {
  // The audit itself: a nameless button (critical) fails the light run, text that only the dark
  // theme makes unreadable (serious contrast) fails the dark run.
  await page.goto("/signin");
  await page.evaluate(() => {
    const nameless = document.createElement("button");
    nameless.id = "audit-nameless";
    document.body.append(nameless);
  });
  await expect(auditPage(page, "audit-fails")).rejects.toThrow(/button-name \(critical\)/);
  await page.evaluate(() => {
    document.getElementById("audit-nameless")?.remove();
    const style = document.createElement("style");
    style.textContent = "html.dark .audit-faint { color: #1a1a1a }";
    const faint = document.createElement("p");
    faint.textContent = "Hard to read in the dark";
    faint.className = "audit-faint";
    document.body.append(style, faint);
  });
  await expect(auditPage(page, "audit-fails")).rejects.toThrow(/in dark[\s\S]*color-contrast/);
});

test("a wrong password shows an error; the right one lands on deployments", async ({ page }) => {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(state.admin.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Incorrect" })).toHaveText(
    "Incorrect email or password.",
  );
  await expect(page).toHaveURL(/\/signin/);
  await expect(page.getByLabel("Email")).toHaveValue(state.admin.email);
  await auditPage(page, "signin-error");

  await page.getByLabel("Password").fill(state.admin.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/deployments$/);
  await expect(page.getByRole("heading", { name: "Deployments" })).toBeVisible();
  await page.goto("/");
  await expect(page).toHaveURL(/\/deployments$/);
});

test("sign out ends the session, server-side: the saved cookie no longer works", async ({
  page,
}) => {
  await signIn(page, state.admin);
  const saved = (await page.context().cookies()).find((c) => c.name === "authjs.session-token");
  expect(saved).toBeTruthy();
  await page.goto("/settings/sessions");
  await expect(
    page.getByRole("table", { name: "Sessions" }).getByText("This browser"),
  ).toBeVisible();
  await auditPage(page, "settings-sessions");
  await page.getByRole("button", { name: `Account: ${state.admin.email}` }).click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await page.goto("/deployments");
  await expect(page).toHaveURL(/\/signin/);
  // Putting the cookie back (as a thief who copied it would) does not sign anyone in.
  await page.context().addCookies([saved!]);
  await page.goto("/deployments");
  await expect(page).toHaveURL(/\/signin/);
});

test("the workspace switcher moves to another workspace", async ({ page }) => {
  await signIn(page, state.admin);
  await page.goto("/deployments");
  await expect(page.getByRole("link", { name: "support-agent", exact: true })).toBeVisible();
  const switcher = page.getByLabel("Workspace");
  await switcher.selectOption({ label: state.otherWorkspace });
  await expect(page.getByRole("heading", { name: "No deployments yet" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Import a repository" })).toHaveAttribute(
    "href",
    "/import",
  );
  await auditPage(page, "deployments-empty");
  await page.getByRole("link", { name: "Import a repository" }).click();
  await expect(page.getByRole("heading", { name: "Import a repository" })).toBeVisible();
  await auditPage(page, "import");
  await page.getByLabel("Workspace").selectOption({ label: "Default workspace" });
  await expect(page.getByRole("link", { name: "support-agent", exact: true })).toBeVisible();
});
