import type { V1EnvVar, V1Secret } from "@kubernetes/client-node";
import { SECRET_PLACEHOLDER } from "@/schemas/deployments";
import type { RenderContext } from "./context";
import { metadataOf } from "./names-and-labels";
import type { Component, KubernetesObject } from "./types";

const byName = <T extends { name: string }>(a: T, b: T) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

/** `<name>-secrets`: the revision's secrets by name; rendered even when empty so the set is stable. */
export function appSecret(ctx: RenderContext): V1Secret {
  const secrets = [...ctx.input.revision.secrets].sort(byName);
  return {
    apiVersion: "v1",
    kind: "Secret",
    metadata: metadataOf(ctx.input, "server", ctx.names.secrets),
    type: "Opaque",
    stringData: Object.fromEntries(secrets.map((s) => [s.name, s.value])),
  };
}

/**
 * `<name>-tracing`: the revision's ingest key, and the OTel exporter's headers that carry it.
 * Only with a tracing input (an address of Hangar is configured).
 */
export function tracingSecret(ctx: RenderContext): V1Secret[] {
  const tracing = ctx.input.tracing;
  if (!tracing) return [];
  return [
    {
      apiVersion: "v1",
      kind: "Secret",
      metadata: metadataOf(ctx.input, "server", ctx.names.tracing),
      type: "Opaque",
      stringData: {
        api_key: tracing.key,
        // OTLP header values are percent-decoded (W3C baggage format).
        otlp_headers: `x-api-key=${tracing.key},Langsmith-Project=${encodeURIComponent(tracing.project)}`,
      },
    },
  ];
}

/**
 * The reference platform's tracing SDK and any OpenTelemetry exporter, pointed at Hangar with
 * the revision's ingest key (contract 15.7). Only the traces exporter's variables: a user's own
 * metrics or logs exporter never gets the key.
 */
function tracingEnv(ctx: RenderContext): V1EnvVar[] {
  const tracing = ctx.input.tracing;
  if (!tracing) return [];
  const fromSecret = (name: string, key: string): V1EnvVar => ({
    name,
    valueFrom: { secretKeyRef: { name: ctx.names.tracing, key } },
  });
  return [
    { name: "LANGSMITH_TRACING", value: "true" },
    { name: "LANGSMITH_ENDPOINT", value: tracing.endpoint },
    { name: "LANGSMITH_PROJECT", value: tracing.project },
    fromSecret("LANGSMITH_API_KEY", "api_key"),
    { name: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", value: `${tracing.endpoint}/otel/v1/traces` },
    { name: "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", value: "http/protobuf" },
    fromSecret("OTEL_EXPORTER_OTLP_TRACES_HEADERS", "otlp_headers"),
  ];
}

export const DATABASE_PORT = 5432;
export const REDIS_PORT = 6379;

/** `<name>-db-auth`: the database password, and the URI the app reads (it embeds the password). */
export function databaseSecret(ctx: RenderContext): V1Secret {
  const password = ctx.input.databasePassword;
  const host = `${ctx.names.database}.${ctx.namespace.name}.svc`;
  return {
    apiVersion: "v1",
    kind: "Secret",
    metadata: metadataOf(ctx.input, "database", ctx.names.databaseAuth),
    type: "Opaque",
    stringData: {
      password,
      uri: `postgres://postgres:${encodeURIComponent(password)}@${host}:${DATABASE_PORT}/postgres`,
    },
  };
}

/**
 * The app containers' environment: which process to run, where its cache and database are,
 * where to send traces, then the secrets and secret references. A user entry of the same name
 * replaces ours.
 */
export function appEnv(ctx: RenderContext, component: Component): V1EnvVar[] {
  const { names, input } = ctx;
  const env = new Map<string, V1EnvVar>();
  const add = (entry: V1EnvVar) => {
    env.delete(entry.name);
    env.set(entry.name, entry);
  };
  const fromSecret = (name: string, secret: string, key: string) =>
    add({ name, valueFrom: { secretKeyRef: { name: secret, key } } });

  add({ name: "HANGAR_PROCESS", value: component });
  add({
    name: "REDIS_URI",
    value: `redis://${names.redis}.${ctx.namespace.name}.svc:${REDIS_PORT}`,
  });
  fromSecret("DATABASE_URI", names.databaseAuth, "uri");
  for (const entry of tracingEnv(ctx)) add(entry);
  for (const s of [...input.revision.secrets].sort(byName))
    fromSecret(s.name, names.secrets, s.name);
  for (const r of [...input.revision.secretReferences].sort(byName))
    fromSecret(r.name, r.secret_name, r.secret_key);
  return [...env.values()];
}

/** A copy fit to store or show: every Secret value becomes the placeholder. */
export function redactManifests(objects: KubernetesObject[]): KubernetesObject[] {
  return objects.map((object) => {
    const copy = structuredClone(object);
    if (copy.kind !== "Secret") return copy;
    const secret = copy as V1Secret;
    for (const map of [secret.data, secret.stringData]) {
      if (!map) continue;
      for (const key of Object.keys(map)) map[key] = SECRET_PLACEHOLDER;
    }
    return secret;
  });
}
