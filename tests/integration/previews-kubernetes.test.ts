import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCodehostServer, type CodehostServer } from "../../testing/codehost-server";
import { startBuildStack, type BuildStack } from "../helpers/build-stack";
import { waitFor, waitForRevision } from "../helpers/engine";
import { api } from "../helpers/http";
import { createPreviewParent, logOf, webhookUrl } from "../helpers/previews";

// Previews built for real (buildah, Hangar's registry) and deployed on the fake Kubernetes API:
// a pull request gets a running preview with its URL on its head commit; a new push cuts a
// second revision; closing it tears it down; a fork's preview runs without the parent's
// secrets, builds the fork's head commit on every revision and gets its own secrets only once
// an editor approved that commit; a preview past ttl_hours without a push is deleted by the
// worker's sweep.

const SECRET = "whsec-previews-kube-0123456789";
const PARENT_SECRET = "sk-parent-only-value";
let stack: BuildStack;
let host: CodehostServer;
let integrationId: string;

const project = () => ({
  "langgraph.json": JSON.stringify({
    graphs: { agent: "./agent/graph.py:graph" },
    dependencies: ["."],
    python_version: "3.11",
    base_image: stack.baseImage,
  }),
  "agent/graph.py": "graph = 'a preview'\n",
});

beforeAll(async () => {
  stack = await startBuildStack({ HANGAR_PREVIEW_SWEEP_SECONDS: "1" });
  host = await startCodehostServer({
    repos: [
      { id: 4001, owner: "acme", name: "preview-bot", files: project() },
      { id: 4002, owner: "acme", name: "fork-bot", files: project() },
    ],
  });
  const integration = await api("/v1/integrations/codehost", {
    key: stack.tenant.keys.admin,
    baseUrl: stack.baseUrl,
    method: "POST",
    body: {
      name: "previews host",
      api_base_url: host.url,
      token: "codehost-dev-token",
      webhook_secret: SECRET,
    },
  });
  expect(integration.status, integration.text).toBe(201);
  integrationId = integration.body.id;
  host.pulls.addWebhook(webhookUrl(stack.baseUrl, integrationId), SECRET);
}, 240_000);
afterAll(async () => {
  await host?.stop();
  await stack?.stop();
});

const key = () => stack.tenant.keys.editor;

/** The code host got a `success` status on `sha` saying `description` (linking `url`). */
const successPosted = (sha: string, description: string, what: string, url?: string) =>
  waitFor(
    async () => host.pulls.statuses.filter((s) => s.sha === sha),
    (s) =>
      s.some(
        (x) =>
          x.state === "success" &&
          x.description === description &&
          (url === undefined || x.target_url === url),
      ),
    { what, timeoutMs: 30_000 },
  );
const parentOf = (repo: string) =>
  createPreviewParent(key(), host, integrationId, {
    repo,
    baseUrl: stack.baseUrl,
    previews: { secrets: "inherit" },
    secrets: [{ name: "OPENAI_API_KEY", value: PARENT_SECRET }],
  });
const finished = (id: string) =>
  waitForRevision(id, undefined, { db: stack.db, timeoutMs: 120_000 });
const objectsOf = (name: string) =>
  [...stack.kube.objects.values()].filter(
    (o) =>
      (o.metadata as { labels?: Record<string, string> })?.labels?.[
        "app.kubernetes.io/instance"
      ] === name,
  );
/** The secrets the app's containers read (secretKeyRef of `<name>-secrets`), each name once. */
const secretEnvOf = (name: string) => [
  ...new Set(
    objectsOf(name)
      .filter((o) => o.kind === "Deployment")
      .flatMap(
        (o) =>
          (
            o as {
              spec: {
                template: {
                  spec: {
                    containers: {
                      env?: { name: string; valueFrom?: { secretKeyRef?: { name: string } } }[];
                    }[];
                  };
                };
              };
            }
          ).spec.template.spec.containers,
      )
      .flatMap((c) => c.env ?? [])
      .filter((e) => e.valueFrom?.secretKeyRef?.name.endsWith("-secrets"))
      .map((e) => e.name),
  ),
];
const appSecretOf = (name: string) =>
  objectsOf(name).find(
    (o) => o.kind === "Secret" && (o.metadata as { name: string }).name.endsWith("-secrets"),
  ) as { stringData?: Record<string, string> } | undefined;
const gone = (id: string) =>
  waitFor(
    () => stack.db.deployment.count({ where: { id } }),
    (n) => n === 0,
    { timeoutMs: 30_000, what: `deployment ${id} gone` },
  );

describe("a pull request's preview on Kubernetes", () => {
  it("runs with its URL on the pull request, follows pushes and is torn down when closed", async () => {
    await parentOf("acme/preview-bot");
    const { pr, deliveries } = await host.pulls.open({ repo: "acme/preview-bot", title: "Try it" });
    expect(deliveries[0]!.status, JSON.stringify(deliveries[0]!.body)).toBe(202);
    const outcome = deliveries[0]!.body.previews[0]!;
    const previewId = outcome.preview_id!;
    expect(outcome.outcome).toBe("created");
    const revision = await finished(deliveries[0]!.body.deliveries[0]!);
    expect(revision.status, revision.statusMessage ?? "").toBe("DEPLOYED");
    expect(revision.runtime).toBe("kubernetes");
    expect(revision.imageDigest).toMatch(/^sha256:/);

    const preview = await api(`/v2/deployments/${previewId}`, {
      key: key(),
      baseUrl: stack.baseUrl,
    });
    const name = preview.body.name as string;
    const url = `http://${name}.localhost`;
    expect(preview.body.source_config.custom_url).toBe(url);
    expect(objectsOf(name).some((o) => o.kind === "Deployment")).toBe(true);
    // Same repository, secrets "inherit": the parent's secret reaches the preview.
    expect(appSecretOf(name)?.stringData).toMatchObject({ OPENAI_API_KEY: PARENT_SECRET });

    const statuses = await waitFor(
      async () => host.pulls.statuses.filter((s) => s.sha === pr.headSha),
      (s) => s.some((x) => x.state === "success"),
      { what: "a success status", timeoutMs: 30_000 },
    );
    expect(statuses.map((s) => s.state)).toContain("pending");
    expect(statuses.at(-1)).toMatchObject({
      state: "success",
      target_url: url,
      context: "hangar/preview",
      description: "Preview running: revision 1.",
    });

    const pushed = await host.pulls.push("acme/preview-bot", pr.number);
    const second = await finished(pushed.deliveries[0]!.body.deliveries[0]!);
    expect(second).toMatchObject({ number: 2, status: "DEPLOYED", runtime: "kubernetes" });
    await waitFor(
      async () => host.pulls.statuses.filter((s) => s.sha === pushed.pr.headSha),
      (s) => s.some((x) => x.state === "success" && x.target_url === url),
      { what: "the second revision's success status", timeoutMs: 30_000 },
    );

    const closed = await host.pulls.close("acme/preview-bot", pr.number);
    expect(closed.deliveries[0]!.body.previews[0]!.outcome).toBe("deleted");
    await gone(previewId);
    expect(objectsOf(name).filter((o) => o.kind !== "Namespace")).toEqual([]);
  }, 300_000);

  it("builds and runs a fork's pull request without the parent's secrets; its own wait for approval", async () => {
    const parent = await parentOf("acme/fork-bot");
    const { pr, deliveries } = await host.pulls.open({
      repo: "acme/fork-bot",
      fork: "mallory/fork-bot",
      files: { ...project(), "agent/from_the_fork.py": "FIRST = True\n" },
    });
    const firstSha = pr.headSha;
    const outcome = deliveries[0]!.body.previews[0]!;
    const previewId = outcome.preview_id!;
    const revision = await finished(deliveries[0]!.body.deliveries[0]!);
    expect(revision.status, revision.statusMessage ?? "").toBe("DEPLOYED");
    expect(revision.secretsEncrypted).toEqual([]);
    const preview = await api(`/v2/deployments/${previewId}`, {
      key: key(),
      baseUrl: stack.baseUrl,
    });
    expect(preview.body.secrets).toEqual([]);
    expect(preview.body.preview).toMatchObject({ fork: true, parent_id: parent.id });
    expect(appSecretOf(preview.body.name)?.stringData ?? {}).not.toHaveProperty("OPENAI_API_KEY");
    expect(
      JSON.stringify(
        [...stack.kube.objects.values()].filter((o) => objectsOf(preview.body.name).includes(o)),
      ),
    ).not.toContain(PARENT_SECRET);
    const name = preview.body.name as string;
    const url = `http://${name}.localhost`;

    // An editor gives it a secret: the next revision builds the fork's head commit again (never
    // a branch of the base repository) and runs without the secret until the commit is approved.
    const patched = await api(`/v2/deployments/${previewId}`, {
      key: key(),
      baseUrl: stack.baseUrl,
      method: "PATCH",
      body: { secrets: [{ name: "PREVIEW_TOKEN", value: "tok-approved-only" }] },
    });
    expect(patched.status, patched.text).toBe(200);
    const second = await finished(patched.body.latest_revision_id);
    expect(second.sourceRevisionConfig).toMatchObject({ repo_commit_sha: firstSha });
    expect(second).toMatchObject({
      status: "DEPLOYED",
      runtime: "kubernetes",
      secretsWithheld: true,
    });
    const secondLog = await logOf(key(), previewId, second.id, stack.baseUrl);
    expect(secondLog).toContain(`Fetching acme/fork-bot at ${firstSha} from ${host.url}`);
    expect(secondLog).toContain("  agent/from_the_fork.py");
    expect(secondLog).toContain("Built without secrets: a new commit from a fork awaits approval.");
    expect(secretEnvOf(name)).toEqual([]);
    expect(JSON.stringify(objectsOf(name))).not.toContain("tok-approved-only");
    await successPosted(
      firstSha,
      "Preview running: revision 2. Without secrets: a new commit from a fork awaits approval.",
      "revision 2's success status, saying it runs without secrets",
    );

    // Approved: that commit runs with the secret.
    const approved = await api(`/v2/deployments/${previewId}/preview/approve`, {
      key: key(),
      baseUrl: stack.baseUrl,
      method: "POST",
      body: { head_sha: firstSha },
    });
    expect(approved.status, approved.text).toBe(200);
    const third = await finished(approved.body.latest_revision_id);
    expect(third).toMatchObject({
      status: "DEPLOYED",
      runtime: "kubernetes",
      secretsWithheld: false,
    });
    expect(third.sourceRevisionConfig).toMatchObject({ repo_commit_sha: firstSha });
    expect(secretEnvOf(name)).toEqual(["PREVIEW_TOKEN"]);
    expect(appSecretOf(name)?.stringData).toEqual({ PREVIEW_TOKEN: "tok-approved-only" });
    await successPosted(
      firstSha,
      "Preview running: revision 3.",
      "revision 3's success status",
      url,
    );

    // The fork pushes a new commit: built and run without the secret, and the pull request
    // is told so, until an editor approves that commit too.
    const pushed = await host.pulls.push("acme/fork-bot", pr.number, {
      files: { ...project(), "agent/from_the_fork.py": "SECOND = 'unreviewed'\n" },
    });
    const headSha = pushed.pr.headSha;
    const fourth = await finished(pushed.deliveries[0]!.body.deliveries[0]!);
    expect(fourth).toMatchObject({
      status: "DEPLOYED",
      runtime: "kubernetes",
      secretsWithheld: true,
    });
    expect(fourth.sourceRevisionConfig).toMatchObject({ repo_commit_sha: headSha });
    expect(fourth.secretsEncrypted).toEqual([]);
    expect(secretEnvOf(name)).toEqual([]);
    expect(appSecretOf(name)?.stringData ?? {}).toEqual({});
    expect(await logOf(key(), previewId, fourth.id, stack.baseUrl)).toContain(
      "Built without secrets: a new commit from a fork awaits approval.",
    );
    await successPosted(
      headSha,
      "Preview running: revision 4. Without secrets: a new commit from a fork awaits approval.",
      "revision 4's success status, saying it runs without secrets",
    );

    // ttl_hours (72 by default) after its last push: the worker's sweep deletes it. The last
    // push is moved back in time here rather than waiting three days.
    const row = await stack.db.deployment.findUniqueOrThrow({ where: { id: previewId } });
    const stale = new Date(Date.now() - 73 * 3600_000).toISOString();
    await stack.db.deployment.update({
      where: { id: row.id },
      data: { preview: { ...(row.preview as object), last_push_at: stale } },
    });
    await gone(previewId);
    expect(objectsOf(preview.body.name).filter((o) => o.kind !== "Namespace")).toEqual([]);
    const audit = await stack.db.auditEvent.findFirst({
      where: { targetId: previewId, action: "deployment.preview_delete" },
    });
    expect(audit?.data).toMatchObject({ reason: "ttl" });
  }, 300_000);
});
