import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { sampleProject, tarGz } from "../tests/helpers/tarball";
import { toast, waitForRevision } from "./deployment-helpers";
import { auditPage, expect, signIn, state, test } from "./fixtures";

test.beforeEach(async ({ page }) => signIn(page, state.admin));

const unique = (prefix: string) => `${prefix}-${randomBytes(3).toString("hex")}`;
const deploymentId = (url: string) => /\/deployments\/([0-9a-f-]{36})/.exec(url)![1]!;

test("create from a container image: fields and rules in words, then a running revision", async ({
  page,
}) => {
  await page.goto("/deployments");
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "New deployment" })
    .click();
  await expect(page.getByRole("heading", { name: "New deployment" })).toBeVisible();
  await expect(page.getByRole("link", { name: /Import from a code host/ })).toHaveAttribute(
    "href",
    "/import",
  );
  await auditPage(page, "new-deployment");
  await page.getByRole("link", { name: /Container image/ }).click();

  const name = unique("image");
  await page.getByLabel("Deployment name").fill(name);
  await expect(page.getByText(`${name} is available`)).toBeVisible();
  await page.getByLabel("CPU (cores)").fill("0");
  await page.getByLabel("Minimum replicas").fill("5");
  await page.getByLabel("Maximum replicas").fill("2");
  await page.getByRole("button", { name: "Create deployment" }).click();
  // Caught before anything is sent, in words: labels and units, never field paths.
  await expect(page.getByText("Enter the image to run, e.g. ghcr.io/acme/agent:1.0")).toBeVisible();
  await expect(page.getByText("CPU must be at least 0.1 cores")).toBeVisible();
  await expect(page.getByText("Maximum replicas must be at least the minimum (5)")).toBeVisible();
  await expect(page.getByLabel("Image")).toHaveAttribute("aria-invalid", "true");
  await auditPage(page, "new-image-invalid");

  await page.getByLabel("Image").fill(`registry.example.com/agents/${name}:1.0`);
  await page.getByLabel("CPU (cores)").fill("0.5");
  await page.getByLabel("Minimum replicas").fill("1");
  await page.getByRole("button", { name: "Create deployment" }).click();
  await expect(toast(page, `Created ${name}: its first revision is queued`)).toBeVisible();
  await expect(page).toHaveURL(/\/deployments\/[0-9a-f-]{36}$/);
  await waitForRevision(page, deploymentId(page.url()), 1, "DEPLOYED");

  const resources = page.getByRole("table", { name: "Resources" });
  await expect(resources.getByRole("row", { name: /Server/ })).toContainText("0.5 cores");
  await expect(resources.getByRole("row", { name: /Server/ })).toContainText("limit 1 core");
  await expect(resources.getByRole("row", { name: /Server/ })).toContainText("1,024 MB");
  await expect(resources.getByRole("row", { name: /Server/ })).toContainText("1 to 2");
});

test("create from an uploaded archive, then upload a folder as the next revision", async ({
  page,
}) => {
  await page.goto("/new/upload");
  const name = unique("upload");
  await page.getByLabel("Deployment name").fill(name);
  await page.getByRole("button", { name: "Create deployment" }).click();
  await expect(page.getByText("Choose a .tar.gz archive or a folder to upload.")).toBeVisible();

  await page.getByLabel("Choose archive").setInputFiles({
    name: "agent.tar.gz",
    mimeType: "application/gzip",
    buffer: tarGz(sampleProject()),
  });
  await expect(page.getByText("Chosen: agent.tar.gz")).toBeVisible();
  await auditPage(page, "new-upload");
  await page.getByRole("button", { name: "Create deployment" }).click();
  await expect(toast(page, `Created ${name}: its first revision is queued`)).toBeVisible();
  await expect(page).toHaveURL(/\/deployments\/[0-9a-f-]{36}$/);
  const id = deploymentId(page.url());
  await waitForRevision(page, id, 1, "DEPLOYED");

  // A folder is packed in the browser (its .git left out) and cuts revision 2.
  const root = mkdtempSync(path.join(tmpdir(), "hangar-e2e-"));
  const folder = path.join(root, "my-agent");
  for (const entry of sampleProject()) {
    if (!("content" in entry)) continue;
    mkdirSync(path.dirname(path.join(folder, entry.path)), { recursive: true });
    writeFileSync(path.join(folder, entry.path), entry.content);
  }
  mkdirSync(path.join(folder, ".git"), { recursive: true });
  writeFileSync(path.join(folder, ".git", "HEAD"), "ref: refs/heads/main\n");
  await page.goto(`/deployments/${id}/settings`);
  await page.getByLabel("Choose folder").setInputFiles(folder);
  await expect(page.getByText("Chosen: my-agent/ (4 files)")).toBeVisible();
  await page.getByRole("button", { name: "Upload and deploy" }).click();
  await expect(toast(page, "Uploaded: a new revision is queued")).toBeVisible();
  await waitForRevision(page, id, 2, "DEPLOYED");
});
