import type {
  V1Deployment,
  V1Ingress,
  V1Namespace,
  V1Secret,
  V1Service,
  V1StatefulSet,
  V2HorizontalPodAutoscaler,
} from "@kubernetes/client-node";
import type { deploymentTypes, SourceConfig } from "@/schemas/deployments";

// Type-only imports: the official client's shapes are what the Kubernetes driver applies.

export interface RenderInput {
  deployment: {
    id: string;
    name: string;
    workspaceId: string;
    deploymentType: (typeof deploymentTypes)[number];
  };
  revision: {
    id: string;
    number: number;
    imageRef: string;
    sourceConfig: Pick<SourceConfig, "resource_spec" | "listener_config">;
    /** Decrypted values: rendered into a Secret; store or show only redactManifests' output. */
    secrets: { name: string; value: string }[];
    secretReferences: { name: string; secret_name: string; secret_key: string }[];
  };
  /** The Postgres password of this deployment's database (e.g. derived per deployment). */
  databasePassword: string;
  /** The URL the deployment is served at (source_config.custom_url): its host routes to the server. */
  url?: string | null;
  /**
   * Where the app's pods send traces (contract 15.7): the tracing base (`.../api/v1`), the
   * deployment's project and the revision's ingest key (rendered into `<name>-tracing`). Absent:
   * no tracing environment.
   */
  tracing?: TracingInput | null;
}

export interface TracingInput {
  endpoint: string;
  project: string;
  key: string;
}

export type KubernetesObject =
  | V1Namespace
  | V1Secret
  | V1Service
  | V1Deployment
  | V1StatefulSet
  | V2HorizontalPodAutoscaler
  | V1Ingress;

/** The processes of a deployment; app components run the revision's image. */
export type Component = "server" | "queue" | "orchestrator" | "executor" | "redis" | "database";
