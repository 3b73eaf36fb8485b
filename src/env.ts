import { z } from "zod";
import { bootstrapApiKey } from "@/lib/bootstrap-key";
import { parseImageReference } from "@/lib/image-reference";
import { parseByteQuantity } from "@/lib/quantity";

// Every environment variable Hangar reads, parsed once. The README's configuration table lists them.

/** A size as Kubernetes writes it ("512Mi", "4Gi"), kept as written. */
const byteQuantity = z.string().refine((value) => parseByteQuantity(value) !== null, {
  message: 'a size such as "512Mi", "4Gi" or a number of bytes',
});

const schema = z.object({
  DATABASE_URL: z.string().optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HANGAR_DATA_DIR: z.string().default(".data"),
  HANGAR_ENCRYPTION_KEY: z.string().optional(),
  AUTH_SECRET: z.string().optional(),
  HANGAR_MODE: z.enum(["managed", "self_hosted"]).default("managed"),
  HANGAR_REGION: z.enum(["us", "eu", "apac", "us2"]).default("us"),
  HANGAR_BOOTSTRAP_API_KEY: bootstrapApiKey.optional(),
  HANGAR_ADMIN_EMAIL: z.string().default("admin@hangar.local"),
  /** Unset: generated on first start into HANGAR_DATA_DIR/admin.password (no published default). */
  HANGAR_ADMIN_PASSWORD: z.string().min(8).optional(),
  /** OpenID Connect sign-in ("Sign in with SSO"): offered only when all three are set. */
  AUTH_OIDC_ISSUER: z.url().optional(),
  AUTH_OIDC_CLIENT_ID: z.string().min(1).optional(),
  AUTH_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  /** host[:port] or CIDR entries Hangar may call although they are loopback, private, ... (src/server/outbound). */
  HANGAR_EGRESS_ALLOWLIST: z.string().optional(),
  /** The address browsers and OAuth providers reach Hangar at (OAuth redirect URIs). */
  HANGAR_PUBLIC_URL: z.url().optional(),
  HANGAR_CODEHOST_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  HANGAR_DB_POOL_SIZE: z.coerce.number().int().positive().default(10),
  /** Revision steps one worker process runs at once. */
  HANGAR_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** A job running longer than this is presumed dead and retried (a stopped worker's jobs are handed back sooner, by the lifeline). */
  HANGAR_JOB_EXPIRE_SECONDS: z.coerce.number().int().min(1).default(900),
  /** How often an idle worker looks for new jobs (pg-boss polling; at least 0.5). */
  HANGAR_QUEUE_POLL_SECONDS: z.coerce.number().min(0.5).default(1),
  /**
   * How often each worker's lifeline looks for workers that stopped (their database session
   * gone) and hands their running jobs back to the queue (README "What Hangar survives").
   */
  HANGAR_LIFELINE_SECONDS: z.coerce.number().min(0.5).max(60).default(3),
  /**
   * On SIGTERM under `npm start`, how long the web server lets requests in flight finish (new
   * ones get 503) before it stops.
   */
  HANGAR_SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(60).default(10),
  /** How often workers look for expired jobs to retry (pg-boss maintenance). */
  HANGAR_QUEUE_MAINTENANCE_SECONDS: z.coerce.number().int().min(1).default(30),
  /** How often a worker looks for previews past their ttl_hours (contract 5.6). */
  HANGAR_PREVIEW_SWEEP_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  /**
   * Days of tracing runs kept: older day partitions are dropped whole by the worker (README
   * "Tracing"); runs older than this are refused at ingest.
   */
  HANGAR_TRACING_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(14),
  /**
   * The tracing base deployed pods send runs to (LANGSMITH_ENDPOINT), when they reach Hangar at
   * another address than HANGAR_PUBLIC_URL (e.g. in-cluster). Default: HANGAR_PUBLIC_URL/api/v1.
   */
  HANGAR_TRACING_ENDPOINT: z.url().optional(),
  /** Path of a kubeconfig: when set, revisions are applied to that cluster; else only recorded. */
  HANGAR_KUBECONFIG: z.string().optional(),
  /** Where HANGAR_BUILDER=kubernetes runs its build Jobs (README "Builds"). */
  HANGAR_BUILD_NAMESPACE: z
    .string()
    .max(63)
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, "a Kubernetes namespace name")
    .default("hangar-builds"),
  /** The BuildKit rootless image a build Job runs (it must have buildctl-daemonless.sh). */
  HANGAR_BUILD_IMAGE: z.string().min(1).default("moby/buildkit:v0.25.2-rootless"),
  /** The image a build Job fetches its context with (sh, wget, sha256sum and tar: busybox). */
  HANGAR_BUILD_FETCH_IMAGE: z.string().min(1).default("busybox:1.37"),
  /** S3-compatible object storage for source uploads; unset: a folder under HANGAR_DATA_DIR. */
  HANGAR_S3_BUCKET: z.string().min(1).optional(),
  HANGAR_S3_ENDPOINT: z.url().optional(),
  HANGAR_S3_REGION: z.string().min(1).default("us-east-1"),
  HANGAR_S3_FORCE_PATH_STYLE: z.stringbool().default(false),
  HANGAR_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  HANGAR_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Largest unpacked size and file count of an uploaded source archive the builder accepts. */
  HANGAR_BUILD_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024 * 1024),
  HANGAR_BUILD_MAX_FILES: z.coerce.number().int().positive().default(20_000),
  /** A code-host build's repository archive: most bytes downloaded (as uploads) and time. */
  HANGAR_CODEHOST_ARCHIVE_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(200 * 1024 * 1024),
  HANGAR_CODEHOST_ARCHIVE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(600),
  /** What turns sources into images (README "Builds"); unset: builds are a dry run. */
  HANGAR_BUILDER: z.enum(["buildah", "kubernetes"]).optional(),
  /** How long one build may take (the job queue's limit is 24 hours, with room to spare). */
  HANGAR_BUILD_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(72_000).default(1800),
  /** Builds one worker process runs at once, beside HANGAR_WORKER_CONCURRENCY's other steps. */
  HANGAR_BUILD_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
  /** Builds of one workspace running at once across every worker (fair queueing, README "Builds"). */
  HANGAR_BUILD_WORKSPACE_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /** CPUs one build may use (a cgroup's quota locally, the build pod's limit in a cluster). */
  HANGAR_BUILD_CPUS: z.coerce.number().min(0.1).max(256).default(2),
  /** Memory one build may use, as Kubernetes writes it ("4Gi"). */
  HANGAR_BUILD_MEMORY: byteQuantity.default("4Gi"),
  /** Disk one build may write (its layers, its working container, its files): "20Gi". */
  HANGAR_BUILD_DISK: byteQuantity.default("20Gi"),
  /** Processes (and threads) one build may hold at once. */
  HANGAR_BUILD_PROCESSES: z.coerce.number().int().min(32).max(1_000_000).default(1024),
  /**
   * Where a build's steps may connect (through the build's egress proxy): `public` (any public
   * address, the outbound address policy), `none`, or a list of host[:port]/CIDR entries, with
   * `public` among them to add the public internet (README "Builds").
   */
  HANGAR_BUILD_EGRESS: z.string().default("public"),
  /** A delegated cgroup v2 folder the local builder makes each build's group in (README "Builds"). */
  HANGAR_BUILD_CGROUP: z.string().min(1).optional(),
  /**
   * The longest line of any log Hangar stores or serves (build and deploy logs, runtime logs),
   * in characters; a longer one keeps its start and ends with a mark saying what was cut.
   */
  HANGAR_LOG_MAX_LINE: z.coerce.number().int().min(256).max(65_536).default(16_384),
  /**
   * Most bytes and lines of a revision's build log; past either, what the build prints is not
   * kept (one line at the end says how much) and the build goes on.
   */
  HANGAR_BUILD_LOG_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024)
    .max(1024 * 1024 * 1024)
    .default(4 * 1024 * 1024),
  HANGAR_BUILD_LOG_MAX_LINES: z.coerce.number().int().min(100).max(10_000_000).default(20_000),
  /** The FROM of every build (overrides the graph config's base_image). */
  HANGAR_BUILD_BASE_IMAGE: z
    .string()
    .refine((value) => parseImageReference(value) !== null, {
      message: "an image reference, e.g. registry.example.com/langchain/langgraph-api",
    })
    .optional(),
  /** The URL a deployed revision is served at; {name} is the deployment's name. */
  HANGAR_DEPLOYMENT_URL_TEMPLATE: z.string().default("http://{name}.localhost"),
  /** How long one revision's Kubernetes rollout may take before it ends DEPLOY_FAILED. */
  HANGAR_ROLLOUT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(300),
  /** Runtime logs (contract 11): at most this many lines per container per request. */
  HANGAR_RUNTIME_LOG_LINES: z.coerce.number().int().min(10).max(100_000).default(5000),
  /** The worker's health watch: how long a change settles before it is judged, and how often
   * everything is judged again (catching what a dropped watch missed). */
  HANGAR_HEALTH_SETTLE_MS: z.coerce.number().int().min(0).default(250),
  HANGAR_HEALTH_RESYNC_SECONDS: z.coerce.number().int().min(1).default(30),
  /** A listener not heard from for this long is offline; its deployments' state is UNKNOWN. */
  HANGAR_LISTENER_OFFLINE_SECONDS: z.coerce.number().int().min(1).default(90),
  /** How long a listener's long poll for work waits before answering "nothing yet". */
  HANGAR_LISTENER_POLL_SECONDS: z.coerce.number().int().min(1).max(60).default(25),
  /** How long a listener holds a revision's lease without renewing it. */
  HANGAR_LISTENER_LEASE_SECONDS: z.coerce.number().int().min(1).default(60),
  /** Runtime logs of a listener deployment: how long deploy_logs waits for the listener's answer. */
  HANGAR_LISTENER_LOG_WAIT_SECONDS: z.coerce.number().int().min(1).max(60).default(10),
  /**
   * Hangar's container registry (README "Container registry"): the `host[:port]` clients push
   * to. Unset: no registry, so push-token answers 503.
   */
  HANGAR_REGISTRY_URL: z
    .string()
    .regex(/^[a-z0-9.-]+(:\d{1,5})?$/i, "host or host:port, no scheme or path")
    .optional(),
  /** The registry's `auth.token.service`: the audience of the tokens Hangar signs for it. */
  HANGAR_REGISTRY_SERVICE: z.string().min(1).default("hangar-registry"),
  /** Where Hangar reads the registry's API (manifest digests); default https://HANGAR_REGISTRY_URL. */
  HANGAR_REGISTRY_API_URL: z.url().optional(),
  /**
   * The registry token signing key (PKCS#8 PEM, EC P-256) and its certificate (PEM). Unset: both
   * generated once per installation and kept in the database, encrypted (issue 27).
   */
  HANGAR_REGISTRY_KEY_FILE: z.string().min(1).optional(),
  HANGAR_REGISTRY_CERT_FILE: z.string().min(1).optional(),
  /** Serves /bench/baseline for the benchmarks in bench/. */
  HANGAR_BENCH: z.stringbool().default(false),
  // Rate limits (README "Rate limits"): shared through Redis when REDIS_URL is set.
  REDIS_URL: z.string().optional(),
  HANGAR_RATELIMIT_ENABLED: z.stringbool().default(true),
  HANGAR_RATELIMIT_FAIL_CLOSED: z.stringbool().default(false),
  HANGAR_RATELIMIT_REDIS_TIMEOUT_MS: z.coerce.number().int().positive().default(30),
  HANGAR_RATELIMIT_PREFIX: z.string().min(1).default("hangar:rl"),
  HANGAR_TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).default(0),
});

export type Env = z.infer<typeof schema>;

/** A builder pushes its images to Hangar's registry: without one it could build nothing. */
const configured = schema.superRefine((value, ctx) => {
  if (value.HANGAR_BUILDER && !value.HANGAR_REGISTRY_URL)
    ctx.addIssue({
      code: "custom",
      path: ["HANGAR_BUILDER"],
      message: `HANGAR_BUILDER=${value.HANGAR_BUILDER} pushes images to Hangar's registry: set HANGAR_REGISTRY_URL (and HANGAR_REGISTRY_API_URL for a plain-HTTP one), or unset HANGAR_BUILDER (README, Builds).`,
    });
});

const parsed = configured.safeParse(process.env);
if (!parsed.success) {
  throw new Error(`Invalid environment: ${z.prettifyError(parsed.error)}`);
}

export const env: Env = parsed.data;
