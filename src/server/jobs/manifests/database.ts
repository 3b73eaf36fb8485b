import type { V1StatefulSet } from "@kubernetes/client-node";
import type { RenderContext } from "./context";
import { annotationsOf, labelsOf, metadataOf, selectorLabels } from "./names-and-labels";
import { resourcesOf, storageQuantity } from "./resources";
import { DATABASE_PORT, databaseSecret } from "./secrets";
import { serviceOf } from "./service";
import type { KubernetesObject } from "./types";

export const POSTGRES_IMAGE = "postgres:16-alpine";
export const DEFAULT_DB_STORAGE_GI = 10;
const DATA_DIR = "/var/lib/postgresql/data";

/**
 * `<name>-db`: one Postgres StatefulSet with a db_storage_gi volume, its headless Service and
 * the Secret with its password. Like the cache, its pods do not restart on a new revision.
 */
export function databaseObjects(ctx: RenderContext): KubernetesObject[] {
  const { input, names, spec } = ctx;
  const stable = { withRevision: false };
  const maxConnections = spec.db_max_connections;
  const statefulSet: V1StatefulSet = {
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: metadataOf(input, "database", names.database),
    spec: {
      serviceName: names.database,
      replicas: 1,
      selector: { matchLabels: selectorLabels(input, "database") },
      template: {
        metadata: {
          labels: labelsOf(input, "database", stable),
          annotations: annotationsOf(input, stable),
        },
        spec: {
          containers: [
            {
              name: "postgres",
              image: POSTGRES_IMAGE,
              args:
                maxConnections != null ? ["-c", `max_connections=${maxConnections}`] : undefined,
              ports: [{ name: "postgres", containerPort: DATABASE_PORT, protocol: "TCP" }],
              env: [
                {
                  name: "POSTGRES_PASSWORD",
                  valueFrom: { secretKeyRef: { name: names.databaseAuth, key: "password" } },
                },
                // A subdirectory: the volume's root may hold lost+found, which initdb refuses.
                { name: "PGDATA", value: `${DATA_DIR}/pgdata` },
              ],
              resources: resourcesOf(spec, "db_"),
              volumeMounts: [{ name: "data", mountPath: DATA_DIR }],
            },
          ],
        },
      },
      volumeClaimTemplates: [
        {
          // Claim templates are immutable: only labels that never change for this deployment.
          metadata: { name: "data", labels: selectorLabels(input, "database") },
          spec: {
            accessModes: ["ReadWriteOnce"],
            resources: {
              requests: { storage: storageQuantity(spec.db_storage_gi ?? DEFAULT_DB_STORAGE_GI) },
            },
          },
        },
      ],
    },
  };
  return [
    databaseSecret(ctx),
    statefulSet,
    serviceOf(
      ctx,
      "database",
      names.database,
      { name: "postgres", port: DATABASE_PORT },
      { headless: true },
    ),
  ];
}
