import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { createDeployment } from "./deployment-helpers";
import { auditPage, expect, signIn, state, test } from "./fixtures";

// The dashboard's tracing (issue 33): runs sent through the real ingest route (POST
// /api/v1/runs/batch, the tracing SDK's JSON route) into a deployment's project show in its
// Traces tab (chart, runs, filters), a run sent while the tab is open arrives without a reload,
// a trace opens as a waterfall walked with the keyboard, a run takes feedback, the time range
// slides while the tab stays open, a trace of more than 1,000 runs loads page by page, the
// workspace's projects page lists the project; axe-clean, and usable at 390 px.

interface Run {
  id: string;
  name: string;
  run_type: string;
  start_time: number;
  end_time?: number;
  trace_id: string;
  parent_run_id?: string;
  dotted_order: string;
  session_name: string;
  inputs: unknown;
  outputs?: unknown;
  error?: string;
}

/** A dotted_order segment's time, `YYYYMMDDTHHMMSSffffff`, as the SDK writes it. */
const stamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.(\d{3})Z$/, "$1000");

function run(
  project: string,
  fields: Partial<Run> & { name: string; start: number; ms?: number },
  parent?: Run,
): Run {
  const id = randomUUID();
  const { start, ms, ...rest } = fields;
  return {
    id,
    run_type: "chain",
    start_time: start,
    ...(ms !== undefined ? { end_time: start + ms } : {}),
    trace_id: parent?.trace_id ?? id,
    ...(parent ? { parent_run_id: parent.id } : {}),
    dotted_order: `${parent ? `${parent.dotted_order}.` : ""}${stamp(start)}Z${id}`,
    session_name: project,
    inputs: {},
    ...rest,
  };
}

/** Sends runs as the SDK's batch route takes them, with the signed-in admin's session. */
async function ingest(page: Page, runs: Run[]) {
  const res = await page.request.post("/api/v1/runs/batch", { data: { post: runs } });
  expect(res.status(), await res.text()).toBe(202);
}

/** A trace with a child LLM call and a large output, a failed trace, and a quick one. */
function traces(project: string) {
  const now = Date.now();
  const plan = run(project, {
    name: "plan-trip",
    start: now - 240_000,
    ms: 2400,
    inputs: { question: "A weekend in Paris?", budget: 900 },
    outputs: { answer: "Take the train on Friday." },
  });
  const flights = run(
    project,
    {
      name: "search-flights",
      run_type: "tool",
      start: now - 239_800,
      ms: 900,
      inputs: { from: "LHR", to: "CDG" },
      outputs: {
        flights: Array.from({ length: 120 }, (_, i) => `AF${1000 + i}`),
        notes: "x".repeat(5000),
      },
    },
    plan,
  );
  const llm = run(
    project,
    {
      name: "write-answer",
      run_type: "llm",
      start: now - 238_800,
      ms: 1100,
      inputs: { messages: [{ role: "user", content: "<img src=x onerror=alert(1)>" }] },
      outputs: {
        usage_metadata: { input_tokens: 120, output_tokens: 30, total_tokens: 150 },
        text: "Take the train on Friday.",
      },
    },
    plan,
  );
  const hotel = run(project, {
    name: "book-hotel",
    start: now - 120_000,
    ms: 700,
    inputs: { city: "Paris" },
    error: "RuntimeError: no rooms left\n  at book (hotel.py:12)",
  });
  return { plan, flights, llm, hotel };
}

test("a deployment's Traces tab: chart, live runs, filters, a trace's waterfall", async ({
  page,
}) => {
  // The longest walk here (two pages audited in two themes, feedback given): on a busy two-core
  // machine it has come close to the default 2 minutes.
  test.slow();
  await signIn(page, state.admin);
  const name = `traces-${Date.now().toString(36)}`;
  const id = await createDeployment(page, name);
  const seeded = traces(name);
  await ingest(page, [seeded.plan, seeded.flights, seeded.llm, seeded.hotel]);

  await page.goto(`/deployments/${id}`);
  await page
    .getByRole("navigation", { name: "Deployment sections" })
    .getByRole("link", { name: "Traces" })
    .click();
  await expect(page).toHaveURL(new RegExp(`/deployments/${id}/traces$`));

  // The chart is a plot with a summary; the runs list the two traces (root runs).
  const chart = page.getByRole("img", { name: /Runs, errors and latency per hour/ });
  await expect(chart).toBeVisible();
  await expect(chart).toHaveAccessibleName(/2 runs, 1 error \(50 %\)/);
  const runs = page.getByRole("table", { name: "Runs" });
  await expect(runs.getByRole("link", { name: "plan-trip" })).toBeVisible();
  await expect(runs.getByRole("row", { name: /book-hotel/ })).toContainText("Error");
  await expect(runs.getByRole("row", { name: /book-hotel/ })).toContainText(
    "RuntimeError: no rooms left",
  );
  await expect(runs.getByRole("row", { name: /plan-trip/ })).toContainText("2.40 s");
  await expect(runs.getByRole("row", { name: /plan-trip/ })).toContainText(/[45] minutes ago/);

  // A run sent now arrives while the tab is open, and the figures follow.
  await ingest(page, [run(name, { name: "late-arrival", start: Date.now() - 1000, ms: 300 })]);
  await expect(runs.getByRole("link", { name: "late-arrival" })).toBeVisible();
  await expect(chart).toHaveAccessibleName(/3 runs, 1 error \(33 %\)/);
  await expect(runs.getByRole("row", { name: /late-arrival/ })).toContainText("just now");

  // Filters: errors only, then a name search.
  await page.getByLabel("Status").selectOption("error");
  await expect(runs.getByRole("link")).toHaveText(["book-hotel"]);
  await page.getByLabel("Status").selectOption("");
  await page.getByLabel("Search by name").fill("PLAN");
  await expect(runs.getByRole("link")).toHaveText(["plan-trip"]);
  await page.getByLabel("Include child runs").check();
  await page.getByLabel("Search by name").fill("");
  await expect(runs.getByRole("link", { name: "write-answer" })).toBeVisible();
  await page.getByLabel("Include child runs").uncheck();
  await auditPage(page, "traces-tab");

  // The trace: a waterfall of its three runs, the root chosen, its inputs and outputs.
  await runs.getByRole("link", { name: "plan-trip" }).click();
  await expect(page.getByRole("heading", { name: "Trace: plan-trip" })).toBeVisible();
  const waterfall = page.getByRole("list", { name: "Runs of the trace" });
  await expect(waterfall.getByRole("button")).toHaveCount(3);
  const chosen = waterfall.locator("button[aria-current=true]");
  await expect(chosen).toContainText("plan-trip");
  const detail = page.getByRole("article");
  await expect(detail.getByRole("heading", { name: /plan-trip/ })).toBeVisible();
  await expect(detail.getByRole("group", { name: "Inputs" })).toContainText("A weekend in Paris?");
  await expect(detail.getByRole("group", { name: "Outputs" })).toContainText(
    "Take the train on Friday.",
  );

  // Keyboard: the chosen row takes the focus, the arrow keys move to the next runs.
  await chosen.focus();
  await page.keyboard.press("ArrowDown");
  await expect(waterfall.getByRole("button", { name: /search-flights/ })).toBeFocused();
  await expect(detail.getByRole("heading", { name: /search-flights/ })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`run=${seeded.flights.id}`));
  // A large output is paged: 50 of 120 items, then 50 more; a long string is cut.
  const outputs = detail.getByRole("group", { name: "Outputs" });
  await expect(outputs.getByText('"AF1049"', { exact: true })).toBeVisible();
  await expect(outputs.getByText('"AF1050"', { exact: true })).toHaveCount(0);
  await outputs.getByRole("button", { name: "Show 50 more of 70" }).click();
  await expect(outputs.getByText('"AF1099"', { exact: true })).toBeVisible();
  await expect(
    outputs.getByRole("button", { name: /Show more \(3,000 more characters\)/ }),
  ).toBeVisible();

  // Home and End too, from the list (the paging button took the focus).
  await waterfall.getByRole("button", { name: /search-flights/ }).focus();
  await page.keyboard.press("Home");
  await expect(waterfall.getByRole("button", { name: /plan-trip/ })).toBeFocused();
  await page.keyboard.press("End");
  await expect(waterfall.getByRole("button", { name: /write-answer/ })).toBeFocused();
  // Text from the payload is shown as text, never as markup.
  await expect(detail.getByRole("group", { name: "Inputs" })).toContainText(
    "<img src=x onerror=alert(1)>",
  );
  await expect(detail.locator("img")).toHaveCount(0);
  await expect(detail).toContainText("150 (120 prompt, 30 completion)");
  await auditPage(page, "traces-waterfall");

  // Feedback from the dashboard (the admin may give it): nothing given is refused in words, then
  // a thumb up and a comment, sent with the keyboard, recorded under the default key.
  const feedback = detail.getByRole("form", { name: "Give feedback" });
  await feedback.getByRole("button", { name: "Add feedback" }).click();
  await expect(feedback).toContainText("Give a score (or a thumb) or a comment");
  await expect(feedback.getByLabel("Score")).toBeFocused();
  await feedback.getByRole("button", { name: "Thumbs up" }).focus();
  await page.keyboard.press("Space");
  await expect(feedback.getByRole("button", { name: "Thumbs up" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await expect(feedback.getByLabel("Score")).toHaveValue("1");
  await feedback.getByLabel("Comment (optional)").fill("Clear, and the train is right");
  await expect(feedback.getByLabel("Key")).toHaveValue("user_score");
  await feedback.getByLabel("Key").press("Enter");
  await expect(feedback.getByRole("status")).toHaveText("Feedback recorded.");
  const given = detail.getByRole("list", { name: "Feedback given" });
  await expect(given).toContainText("user_score");
  await expect(given).toContainText("score 1");
  await expect(given).toContainText("Clear, and the train is right");

  // The failed trace shows its error; Back returns to the list.
  await page.getByRole("link", { name: "All runs" }).click();
  await runs.getByRole("link", { name: "book-hotel" }).click();
  await expect(page.getByRole("article")).toContainText("RuntimeError: no rooms left");
});

test("the time range slides while the page stays open", async ({ page }) => {
  await signIn(page, state.admin);
  const name = `sliding-${Date.now().toString(36)}`;
  const id = await createDeployment(page, name);
  const now = Date.now();
  await ingest(page, [
    run(name, { name: "older-run", start: now - 50 * 60_000, ms: 500 }),
    run(name, { name: "recent-run", start: now - 5 * 60_000, ms: 500 }),
  ]);
  // The page's clock is the test's to move from here (its timers still run as time passes).
  await page.clock.install();
  await page.goto(`/deployments/${id}/traces`);
  await page.getByLabel("Time range").selectOption("1h");
  const chart = page.getByRole("img", { name: /per minute, last hour/ });
  await expect(chart).toHaveAccessibleName(/2 runs, 0 errors/);
  const runs = page.getByRole("table", { name: "Runs" });
  await expect(runs.getByRole("link")).toHaveText(["recent-run", "older-run"]);

  // A quarter of an hour later, without a reload: the live poll asks for the hour as it is now,
  // which starts after older-run.
  await page.clock.fastForward(15 * 60_000);
  await expect(runs.getByRole("link")).toHaveText(["recent-run"]);
  await expect(chart).toHaveAccessibleName(/1 run, 0 errors/);
});

test("a trace of more than 1,000 runs loads the rest on Load more runs", async ({ page }) => {
  await signIn(page, state.admin);
  const name = `wide-${Date.now().toString(36)}`;
  const start = Date.now() - 10 * 60_000;
  const root = run(name, { name: "fan-out", start, ms: 2000 });
  const leaves = Array.from({ length: 1049 }, (_, i) =>
    run(name, { name: `leaf-${i}`, start: start + i + 1, ms: 1 }, root),
  );
  await ingest(page, [root, ...leaves]);
  const projects = await page.request.get(`/api/v1/sessions?name=${name}`);
  const [project] = (await projects.json()) as { id: string }[];

  // A thousand rows take a busy machine's browser seconds to render: wait longer than usual.
  const rendered = { timeout: 60_000 };
  await page.goto(`/tracing/${project!.id}?trace=${root.id}`);
  await expect(page.getByRole("heading", { name: "Trace: fan-out" })).toBeVisible(rendered);
  const waterfall = page.getByRole("list", { name: "Runs of the trace" });
  await expect(waterfall.getByRole("button")).toHaveCount(1000, rendered);
  const shown = page.getByRole("status").filter({ hasText: /^Showing/ });
  await expect(shown).toHaveText("Showing 1,000 of 1,050 runs");

  // Tab reaches the control from the list; Enter loads the next page and moves the focus to its
  // first run.
  await waterfall.getByRole("button", { name: /fan-out/ }).focus();
  await page.keyboard.press("Tab");
  const more = page.getByRole("button", { name: "Load more runs" });
  await expect(more).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(waterfall.getByRole("button")).toHaveCount(1050, rendered);
  await expect(shown).toHaveText("Showing 1,050 of 1,050 runs");
  await expect(more).toHaveCount(0);
  await expect(waterfall.getByRole("button", { name: /leaf-999\b/ })).toBeFocused();
  await page.keyboard.press("End");
  await expect(waterfall.getByRole("button", { name: /leaf-1048/ })).toBeFocused();
  await expect(page.getByRole("article").getByRole("heading", { name: /leaf-1048/ })).toBeVisible();
});

test("the Tracing projects page lists projects with their last day and opens one", async ({
  page,
}) => {
  await signIn(page, state.admin);
  const name = `projects-${Date.now().toString(36)}`;
  const id = await createDeployment(page, name);
  const seeded = traces(name);
  await ingest(page, [seeded.plan, seeded.hotel]);
  // A project no deployment owns: the SDK named it.
  const detached = `sdk-only-${Date.now().toString(36)}`;
  await ingest(page, [run(detached, { name: "nightly-eval", start: Date.now() - 5000, ms: 50 })]);

  await page.goto("/deployments");
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Tracing" })
    .click();
  await expect(page.getByRole("heading", { name: "Tracing projects" })).toBeVisible();
  const table = page.getByRole("table", { name: "Tracing projects" });
  const row = table.getByRole("row", { name: new RegExp(name) });
  await expect(row.getByRole("link", { name })).toHaveCount(2);
  await expect(row).toContainText("50 %");
  await expect(row.getByRole("cell").nth(2)).toHaveText("2");
  await expect(table.getByRole("row", { name: new RegExp(detached) })).toContainText("Detached");
  await page.getByText("How to send traces").click();
  await expect(page.getByLabel("Tracing SDK environment")).toContainText(
    `LANGSMITH_ENDPOINT=${state.baseUrl}/api/v1`,
  );
  await auditPage(page, "tracing-projects");

  await row.getByRole("link", { name }).first().click();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await expect(page.getByRole("img", { name: /2 runs, 1 error/ })).toBeVisible();
  await page.getByRole("link", { name: "Its deployment" }).click();
  await expect(page).toHaveURL(new RegExp(`/deployments/${id}$`));
});

test.describe("at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the Traces tab and a trace fit the screen", async ({ page }) => {
    await signIn(page, state.admin);
    const name = `narrow-${Date.now().toString(36)}`;
    const id = await createDeployment(page, name);
    const seeded = traces(name);
    await ingest(page, [seeded.plan, seeded.flights, seeded.llm, seeded.hotel]);
    /** What sticks out past the screen's right edge (outside any scrolling frame), if anything. */
    const overflow = () =>
      page.evaluate(() => {
        const width = window.innerWidth;
        const clipped = (el: Element) => {
          for (let p = el.parentElement; p; p = p.parentElement)
            if (getComputedStyle(p).overflowX !== "visible") return true;
          return false;
        };
        const wide = [...document.querySelectorAll("body *")]
          .filter((el) => el.getBoundingClientRect().right > width + 1 && !clipped(el))
          .map((el) => `${el.tagName.toLowerCase()}.${el.getAttribute("class") ?? ""}`);
        return { scroll: document.documentElement.scrollWidth - width, wide: wide.slice(0, 5) };
      });

    await page.goto(`/deployments/${id}/traces`);
    await expect(page.getByRole("img", { name: /2 runs/ })).toBeVisible();
    await expect(
      page.getByRole("table", { name: "Runs" }).getByRole("link", { name: "plan-trip" }),
    ).toBeVisible();
    expect(await overflow()).toEqual({ scroll: 0, wide: [] });
    await auditPage(page, "traces-tab-390");

    await page.getByRole("link", { name: "plan-trip" }).click();
    const waterfall = page.getByRole("list", { name: "Runs of the trace" });
    await expect(waterfall.getByRole("button")).toHaveCount(3);
    await waterfall.getByRole("button", { name: /write-answer/ }).click();
    await expect(
      page.getByRole("article").getByRole("heading", { name: /write-answer/ }),
    ).toBeVisible();
    expect(await overflow()).toEqual({ scroll: 0, wide: [] });
    await auditPage(page, "traces-waterfall-390");
  });
});
