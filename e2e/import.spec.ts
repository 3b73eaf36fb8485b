import { auditPage, expect, signIn, state, test } from "./fixtures";

const codehostUrl = process.env.E2E_CODEHOST_URL!;
const registerForm = (page: import("@playwright/test").Page) =>
  page.getByRole("form", { name: "Register a code-host integration" });

test("import a repository through the wizard and land on the new deployment", async ({ page }) => {
  await signIn(page, state.admin);
  await page.goto("/deployments");
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Import" })
    .click();
  await expect(page.getByRole("heading", { name: "Choose a code-host integration" })).toBeVisible();
  // No integration yet: the register form is shown right away.
  await expect(registerForm(page)).toBeVisible();
  await auditPage(page, "import-integration");

  // A token the code host refuses, or a metadata address, is refused at registration, saying
  // why; nothing is saved.
  await registerForm(page).getByLabel("Name").fill("Broken host");
  await registerForm(page).getByLabel("API base URL").fill(codehostUrl);
  await registerForm(page).getByLabel("Access token").fill("not-a-valid-token");
  await page.getByRole("button", { name: "Register integration" }).click();
  await expect(
    registerForm(page).getByText("The code host refused this token: check it is valid"),
  ).toBeVisible();
  await expect(page.getByRole("radio", { name: /Broken host/ })).toHaveCount(0);
  await registerForm(page).getByLabel("API base URL").fill("http://169.254.169.254/latest");
  await registerForm(page).getByLabel("Access token").fill("codehost-dev-token");
  await page.getByRole("button", { name: "Register integration" }).click();
  await expect(registerForm(page).getByText(/169\.254\.169\.254 is a .+ address/)).toBeVisible();
  await auditPage(page, "import-registration-refused");

  // Register the working integration inline; it becomes the selected one.
  await registerForm(page).getByLabel("API base URL").fill("ftp://nope");
  await registerForm(page).getByLabel("Name").fill("Local code host");
  await expect(page.getByText("Must be an absolute http or https URL")).toBeVisible();
  await registerForm(page).getByLabel("API base URL").fill(codehostUrl);
  await registerForm(page).getByLabel("Access token").fill("codehost-dev-token");
  await page.getByRole("button", { name: "Register integration" }).click();
  await expect(page.getByRole("radio", { name: /Local code host/ })).toBeChecked();
  await page.keyboard.press("Tab");
  await page.getByRole("button", { name: "Next", exact: true }).click();

  // Search and pick a repository, with the keyboard.
  await expect(page.getByRole("heading", { name: "Pick a repository" })).toBeFocused();
  await expect(page.getByText("6 repositories")).toBeVisible();
  await page.getByLabel("Search repositories").fill("zzz");
  await expect(page.getByRole("heading", { name: "No repositories match" })).toBeVisible();
  await page.getByLabel("Search repositories").fill("beta-labs/eval");
  await expect(page.getByText("1 of 6 repositories match")).toBeVisible();
  await auditPage(page, "import-repository");
  await page.getByRole("radio", { name: /beta-labs\/Eval-Harness/ }).focus();
  await page.keyboard.press("Space");
  await page.getByRole("button", { name: "Next", exact: true }).click();

  // Configure: the name is the repository's as a DNS label, the branch its default branch.
  await expect(page.getByLabel("Deployment name")).toHaveValue("eval-harness");
  await expect(page.getByText("eval-harness is available")).toBeVisible();
  await expect(page.getByLabel("Branch")).toHaveValue("dev");
  await expect(page.getByLabel("Graph config path")).toHaveValue("langgraph.json");
  await expect(page.getByLabel("CPU (cores)")).toHaveValue("1");
  await page.getByLabel("Deployment name").fill("billing-bot");
  await expect(page.getByText("billing-bot is taken in this workspace")).toBeVisible();
  await page.getByLabel("Deployment name").fill("Eval_Harness");
  await expect(page.getByText("Name must be a DNS label")).toBeVisible();
  await page.getByLabel("Deployment name").fill("eval-harness");
  await expect(page.getByText("eval-harness is available")).toBeVisible();
  await page.getByLabel("Minimum replicas").fill("3");
  await expect(page.getByText("Maximum replicas must be at least the minimum (3)")).toBeVisible();
  await page.getByLabel("Minimum replicas").fill("1");
  await page.getByRole("button", { name: "Paste .env" }).click();
  await page
    .getByLabel("Paste .env lines")
    .fill('# keys\nOPENAI_API_KEY="sk-wizard"\nexport LOG_LEVEL=debug\n');
  await page.getByRole("button", { name: "Add these secrets" }).click();
  await expect(page.getByLabel("Secret 2 name")).toHaveValue("LOG_LEVEL");
  const value = page.getByRole("textbox", { name: "Secret 1 value" });
  await expect(value).toHaveAttribute("type", "password");
  await page.getByRole("button", { name: "Show secret 1 value" }).click();
  await expect(value).toHaveAttribute("type", "text");
  await expect(value).toHaveValue("sk-wizard");
  await page.getByRole("button", { name: "Hide secret 1 value" }).click();
  // Previews follow build on push; turned on here they take the API's defaults.
  const buildOnPush = page.getByRole("checkbox", { name: "Build on push" });
  const previews = page.getByRole("checkbox", { name: "Preview every pull request" });
  await buildOnPush.uncheck();
  await expect(previews).toBeDisabled();
  await expect(page.getByText("Needs Build on push.")).toBeVisible();
  await buildOnPush.check();
  await previews.focus();
  await page.keyboard.press("Space");
  await expect(previews).toBeChecked();
  await expect(page.getByText(/forks never get secrets/)).toBeVisible();
  await auditPage(page, "import-configure");
  await page.getByRole("button", { name: "Next: review" }).click();

  // Review: what will be created, secret values masked.
  await expect(page.getByRole("heading", { name: "Review and create" })).toBeVisible();
  const secrets = page.getByRole("list", { name: "Secrets to create" });
  await expect(secrets).toContainText("OPENAI_API_KEY");
  await expect(secrets).not.toContainText("sk-wizard");
  await expect(page.getByRole("complementary", { name: "Import summary" })).toContainText(
    "beta-labs/Eval-Harness",
  );
  await expect(
    page.getByText("On: at most 5 open, deleted after 72 h without a push, no secrets"),
  ).toBeVisible();
  await auditPage(page, "import-review");

  // A branch or a graph config file that does not exist is caught before creating, on its field.
  const createWith = async (branch: string, graph: string) => {
    await page.getByRole("button", { name: "Back", exact: true }).click();
    await page.getByLabel("Branch").fill(branch);
    await page.getByLabel("Graph config path").fill(graph);
    await page.getByRole("button", { name: "Next: review" }).click();
    await page.getByRole("button", { name: "Create deployment" }).click();
  };
  await createWith("nonexistent-branch", "langgraph.json");
  await expect(
    page.getByText('Branch "nonexistent-branch" does not exist in beta-labs/Eval-Harness'),
  ).toBeVisible();
  await expect(page.getByLabel("Branch")).toHaveAttribute("aria-invalid", "true");
  await auditPage(page, "import-missing-branch");
  await page.getByLabel("Branch").fill("dev");
  await page.getByLabel("Graph config path").fill("graphs/missing.json");
  await page.getByRole("button", { name: "Next: review" }).click();
  await page.getByRole("button", { name: "Create deployment" }).click();
  await expect(
    page.getByText('No file "graphs/missing.json" on branch "dev" of beta-labs/Eval-Harness'),
  ).toBeVisible();
  // Nothing was created: the name is still free.
  await expect(page.getByLabel("Deployment name")).toHaveValue("eval-harness");
  await page.getByLabel("Graph config path").fill("langgraph.json");
  await page.getByRole("button", { name: "Next: review" }).click();
  await page.getByRole("button", { name: "Create deployment" }).click();

  await expect(page).toHaveURL(/\/deployments\/[0-9a-f-]{36}$/);
  await expect(page.getByText("Created eval-harness")).toBeVisible();
  await expect(page.getByRole("heading", { name: /eval-harness/ })).toBeVisible();
  await expect(page.getByText("beta-labs/Eval-Harness").first()).toBeVisible();
  await expect(
    page.getByText("On: at most 5 open, deleted after 72 h without a push, secrets none"),
  ).toBeVisible();
});
