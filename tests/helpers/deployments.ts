import { randomBytes } from "node:crypto";
import type { DeploymentSource } from "../../src/schemas/deployments";
import type { Db } from "../../src/server/db";
import { api } from "./http";

let counter = 0;

/** A fresh DNS-label deployment name, unique across files and runs. */
export function uniqueName(prefix = "dep"): string {
  return `${prefix}-${randomBytes(3).toString("hex")}-${counter++}`;
}

type Body = Record<string, any>;

/** The smallest valid create body per source (codehost needs an integration id). */
export function validDeployment(
  source: DeploymentSource,
  overrides: Body = {},
  opts: { integrationId?: string } = {},
): Body {
  const base: Record<DeploymentSource, Pick<Body, "source_config" | "source_revision_config">> = {
    codehost: {
      source_config: {
        integration_id: opts.integrationId ?? "00000000-0000-4000-8000-000000000000",
        repo_url: "https://github.com/acme/agent",
      },
      source_revision_config: { repo_ref: "main", graph_config_path: "langgraph.json" },
    },
    external_container: {
      source_config: {},
      source_revision_config: { image_uri: "docker.io/acme/agent:1.0" },
    },
    internal_container: {
      source_config: {},
      source_revision_config: { image_uri: "registry.hangar.dev/acme/agent:1.0" },
    },
    internal_source: {
      source_config: {},
      source_revision_config: {
        source_tarball_path: "uploads/agent.tar.gz",
        graph_config_path: "langgraph.json",
      },
    },
    internal_template: {
      source_config: { template_id: "react-agent" },
      source_revision_config: {},
    },
  };
  const { source_config, source_revision_config, ...rest } = overrides;
  return {
    name: uniqueName(source.replace("_", "-").slice(0, 12)),
    source,
    ...rest,
    source_config: { ...base[source].source_config, ...source_config },
    source_revision_config: { ...base[source].source_revision_config, ...source_revision_config },
  };
}

/** A code-host integration row in the organization (no code host is called). */
export async function createIntegrationRow(db: Db, organizationId: string): Promise<string> {
  const row = await db.codehostIntegration.create({
    data: { organizationId, name: uniqueName("integration"), apiBaseUrl: "https://api.github.com" },
  });
  return row.id;
}

/** Creates a deployment over HTTP and returns its body; fails loudly if it was refused. */
export async function createDeploymentOverHttp(key: string, body: Body, baseUrl?: string) {
  const res = await api("/v2/deployments", { key, method: "POST", body, baseUrl });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body;
}
