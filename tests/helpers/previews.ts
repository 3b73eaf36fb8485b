import { expect } from "vitest";
import type { CodehostServer } from "../../testing/codehost-server";
import { api } from "./http";
import { uniqueName } from "./revision-fixtures";

// Preview deployments (contract 5.6): a parent with previews on, and reading what a pull
// request did.

/** A codehost deployment of `repo` at main with build_on_push and previews on. */
export async function createPreviewParent(
  key: string,
  host: CodehostServer,
  integrationId: string,
  options: {
    repo?: string;
    previews?: Record<string, unknown>;
    name?: string;
    baseUrl?: string;
    secrets?: { name: string; value: string }[];
  } = {},
) {
  const res = await api("/v2/deployments", {
    key,
    baseUrl: options.baseUrl,
    method: "POST",
    body: {
      name: options.name ?? uniqueName("parent"),
      source: "codehost",
      source_config: {
        integration_id: integrationId,
        repo_url: `${host.url}/${options.repo ?? "acme/support-bot"}`,
        build_on_push: true,
        previews: { enabled: true, ...options.previews },
      },
      source_revision_config: { repo_ref: "main", graph_config_path: "langgraph.json" },
      secrets: options.secrets ?? [{ name: "OPENAI_API_KEY", value: "sk-parent-secret" }],
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** The webhook URL of an integration on a server. */
export const webhookUrl = (baseUrl: string, integrationId: string) =>
  `${baseUrl}/v1/webhooks/codehost/${integrationId}`;

/** The previews of a parent, over REST. */
export async function previewsOf(key: string, parentId: string, baseUrl?: string) {
  const res = await api(`/v2/deployments?parent_id=${parentId}&previews=only`, { key, baseUrl });
  expect(res.status, res.text).toBe(200);
  return res.body.resources as any[];
}

/** A revision's build and deploy log lines, over REST (oldest first). */
export async function logOf(
  key: string,
  deploymentId: string,
  revisionId: string,
  baseUrl?: string,
): Promise<string[]> {
  const res = await api(`/v2/deployments/${deploymentId}/revisions/${revisionId}/logs?limit=1000`, {
    key,
    baseUrl,
  });
  expect(res.status, res.text).toBe(200);
  return (res.body.resources as { line: string }[]).map((l) => l.line);
}

/** The names of the secrets a revision was cut with (stored encrypted; names are enough). */
export const secretNamesOf = (revision: { secretsEncrypted: unknown }) =>
  (revision.secretsEncrypted as { name: string }[]).map((s) => s.name);
