import { randomBytes } from "node:crypto";
import type { DeploymentSource } from "../../src/schemas/deployments";
import type { Db } from "../../src/server/db";
import { inject } from "vitest";
import { DEFAULT_TOKEN } from "../../testing/codehost-server";
import { encrypt } from "../../src/server/crypto";
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
        repo_url: `${inject("codehostUrl")}/acme/support-bot`,
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
  // Points at the run's local code host (see global-setup), which knows the sample repositories.
  const row = await db.codehostIntegration.create({
    data: {
      organizationId,
      name: uniqueName("integration"),
      apiBaseUrl: inject("codehostUrl"),
      tokenEncrypted: encrypt(DEFAULT_TOKEN),
    },
  });
  return row.id;
}

/** Creates a deployment over HTTP and returns its body; fails loudly if it was refused. */
export async function createDeploymentOverHttp(key: string, body: Body, baseUrl?: string) {
  const res = await api("/v2/deployments", { key, method: "POST", body, baseUrl });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body;
}

// Contract 5.2's per-source table, written out independently of the code under test.

/** Every source-specific field (as the request names it) with a sample value. */
export const fieldSamples: Record<string, unknown> = {
  "source_config.integration_id": "00000000-0000-4000-8000-000000000001",
  "source_config.repo_url": "https://github.com/acme/agent",
  "source_config.build_on_push": false,
  "source_config.listener_id": "00000000-0000-4000-8000-000000000002",
  "source_config.listener_config": { k8s_namespace: "agents" },
  "source_config.install_command": "pip install .",
  "source_config.build_command": "make",
  "source_config.template_id": "react-agent",
  "source_revision_config.repo_ref": "main",
  "source_revision_config.graph_config_path": "langgraph.json",
  "source_revision_config.image_uri": "docker.io/acme/agent:1",
  "source_revision_config.source_tarball_path": "uploads/a.tgz",
  secret_references: [{ name: "OPENAI", secret_name: "llm", secret_key: "openai" }],
};

const sourceFields: Record<DeploymentSource, { required: string[]; allowed: string[] }> = {
  codehost: {
    required: [
      "source_config.integration_id",
      "source_config.repo_url",
      "source_revision_config.repo_ref",
      "source_revision_config.graph_config_path",
    ],
    allowed: [
      "source_config.build_on_push",
      "source_config.install_command",
      "source_config.build_command",
    ],
  },
  external_container: {
    required: ["source_revision_config.image_uri"],
    allowed: ["secret_references", "source_config.listener_id", "source_config.listener_config"],
  },
  internal_container: { required: ["source_revision_config.image_uri"], allowed: [] },
  internal_source: {
    required: [
      "source_revision_config.source_tarball_path",
      "source_revision_config.graph_config_path",
    ],
    allowed: ["source_config.install_command", "source_config.build_command"],
  },
  internal_template: { required: ["source_config.template_id"], allowed: [] },
};

/** [source, field] for every field the source requires. */
export const requiredFieldCases = (sources: DeploymentSource[]) =>
  sources.flatMap((s) => sourceFields[s].required.map((f) => [s, f] as const));

/** [source, field] for every source-specific field the source does not allow. */
export const disallowedFieldCases = (sources: DeploymentSource[]) =>
  sources.flatMap((s) => {
    const ok = new Set([...sourceFields[s].required, ...sourceFields[s].allowed]);
    return Object.keys(fieldSamples)
      .filter((f) => !ok.has(f))
      .map((f) => [s, f] as const);
  });

/** A valid body with one field set (undefined removes it), e.g. "source_config.listener_id". */
export function bodyWithField(
  source: DeploymentSource,
  field: string,
  value: unknown,
  opts: { integrationId?: string } = {},
): Body {
  const [group, key] = field.split(".") as [string, string | undefined];
  return validDeployment(source, { [group]: key ? { [key]: value } : value }, opts);
}

/**
 * A deployment's representation without what the revision engine changes as a revision runs
 * (status, active revision, runtime, updated_at, the URL it sets): what the caller created.
 */
export function withoutEngineFields(deployment: Record<string, any>): Record<string, any> {
  const rest: Record<string, any> = {
    ...deployment,
    source_config: { ...deployment.source_config },
  };
  for (const field of ["status", "updated_at", "active_revision_id", "runtime"]) delete rest[field];
  delete rest.source_config.custom_url;
  return rest;
}
