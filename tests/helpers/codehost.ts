import { expect } from "vitest";
import { DEFAULT_TOKEN, type CodehostServer } from "../../testing/codehost-server";
import { api } from "./http";
import { uniqueName } from "./revision-fixtures";

/** A code-host integration over REST pointing at a local code host; returns its id. */
export async function createIntegration(
  key: string,
  host: CodehostServer,
  webhookSecret?: string,
): Promise<string> {
  const res = await api("/v1/integrations/codehost", {
    key,
    method: "POST",
    body: {
      name: uniqueName("host"),
      api_base_url: host.url,
      token: DEFAULT_TOKEN,
      ...(webhookSecret ? { webhook_secret: webhookSecret } : {}),
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

/** A codehost deployment over REST of `owner/repo` at `ref`. */
export async function createCodehostDeployment(
  key: string,
  host: CodehostServer,
  integrationId: string,
  options: {
    repo?: string;
    ref?: string;
    graph?: string;
    buildOnPush?: boolean;
    name?: string;
  } = {},
) {
  const res = await api("/v2/deployments", {
    key,
    method: "POST",
    body: {
      name: options.name ?? uniqueName("cd"),
      source: "codehost",
      source_config: {
        integration_id: integrationId,
        repo_url: `${host.url}/${options.repo ?? "acme/support-bot"}`,
        build_on_push: options.buildOnPush ?? false,
        install_command: "pip install -e .",
      },
      source_revision_config: {
        repo_ref: options.ref ?? "main",
        graph_config_path: options.graph ?? "langgraph.json",
      },
      secrets: [{ name: "OPENAI_API_KEY", value: "sk-very-secret-value" }],
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
