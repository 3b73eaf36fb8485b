import { createDeployment, toast } from "./deployment-helpers";
import { auditPage, expect, signIn, state, test } from "./fixtures";

test("secrets: .env paste, reveal what was typed, save, and values stay masked", async ({
  page,
}) => {
  await signIn(page, state.admin);
  const id = await createDeployment(page, "secrets-edit", {
    secrets: [
      { name: "KEEP_ME", value: "e2e-stored-value-keep" },
      { name: "DROP_ME", value: "e2e-stored-value-drop" },
    ],
  });
  await page.goto(`/deployments/${id}/secrets`);
  const list = page.getByRole("list", { name: "Secrets" });
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await expect(page.getByLabel("Value of KEEP_ME", { exact: true })).toHaveValue("");
  await expect(page.getByRole("button", { name: "Show value of KEEP_ME" })).toHaveCount(0);
  await auditPage(page, "deployment-secrets");

  await page.getByRole("button", { name: "Paste .env" }).click();
  const dialog = page.getByRole("dialog", { name: "Paste .env" });
  await expect(page.getByLabel(".env lines")).toBeFocused();
  await page
    .getByLabel(".env lines")
    .fill(
      [
        "# pasted from a file",
        'export NEW_TOKEN="e2e-typed-value-one"',
        "OTHER_KEY='e2e-typed-value-two' ",
        "KEEP_ME=e2e-typed-value-three # replaces the stored one",
        "not a line",
      ].join("\n"),
    );
  await expect(dialog).toContainText("3 secrets found: NEW_TOKEN, OTHER_KEY, KEEP_ME");
  await expect(dialog).toContainText("Line 5: Expected KEY=value");
  await auditPage(page, "deployment-secrets-paste");
  await dialog.getByRole("button", { name: "Add secrets" }).click();
  await expect(dialog).toBeHidden();
  await expect(list.getByRole("listitem")).toHaveCount(4);

  // Typed values are masked until revealed; stored ones cannot be revealed at all.
  const typed = page.getByLabel("Value of NEW_TOKEN", { exact: true });
  await expect(typed).toHaveAttribute("type", "password");
  await page.getByRole("button", { name: "Show value of NEW_TOKEN" }).click();
  await expect(typed).toHaveAttribute("type", "text");
  await expect(typed).toHaveValue("e2e-typed-value-one");
  await expect(page.getByLabel("Value of KEEP_ME", { exact: true })).toHaveValue(
    "e2e-typed-value-three",
  );

  await page.getByRole("button", { name: "Remove DROP_ME" }).click();
  await page.getByRole("button", { name: "Add secret" }).click();
  await page.getByLabel("Name of secret 4").fill("1BAD-NAME");
  await expect(page.getByRole("status")).toContainText("Saving will cut a new revision (#2)");
  await page.getByRole("button", { name: "Save secrets" }).click();
  await expect(page.getByText("Secret names start with a letter or '_'")).toBeVisible();
  await auditPage(page, "deployment-secrets-invalid");
  await page.getByRole("button", { name: "Remove 1BAD-NAME" }).click();

  await page.getByRole("button", { name: "Save secrets" }).click();
  await expect(toast(page, "Saved: revision #2 was cut")).toBeVisible();
  await expect(list.getByRole("listitem")).toHaveCount(3);
  for (const name of ["KEEP_ME", "NEW_TOKEN", "OTHER_KEY"]) {
    await expect(page.getByLabel(`Value of ${name}`, { exact: true })).toHaveValue("");
  }

  await page.reload();
  await expect(list.getByRole("listitem")).toHaveCount(3);
  const html = await (await page.request.get(`/deployments/${id}/secrets`)).text();
  expect(html).toContain("NEW_TOKEN");
  for (const html_ of [html, await page.content()]) {
    expect(html_).not.toContain("e2e-typed-value");
    expect(html_).not.toContain("e2e-stored-value");
  }
});
