import { z } from "zod";

// Every environment variable Hangar reads, parsed once. The README's configuration table lists them.
const schema = z.object({
  DATABASE_URL: z.string().optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HANGAR_DATA_DIR: z.string().default(".data"),
  HANGAR_ENCRYPTION_KEY: z.string().optional(),
  AUTH_SECRET: z.string().optional(),
  HANGAR_MODE: z.enum(["managed", "self_hosted"]).default("managed"),
  HANGAR_REGION: z.enum(["us", "eu", "apac", "us2"]).default("us"),
  HANGAR_BOOTSTRAP_API_KEY: z.string().optional(),
  HANGAR_ADMIN_EMAIL: z.string().default("admin@hangar.local"),
  HANGAR_ADMIN_PASSWORD: z.string().default("hangar-admin"),
  /** OpenID Connect sign-in ("Sign in with SSO"): offered only when all three are set. */
  AUTH_OIDC_ISSUER: z.url().optional(),
  AUTH_OIDC_CLIENT_ID: z.string().min(1).optional(),
  AUTH_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  HANGAR_CODEHOST_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  HANGAR_DB_POOL_SIZE: z.coerce.number().int().positive().default(10),
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

const parsed = schema.safeParse(process.env);
if (!parsed.success) {
  throw new Error(`Invalid environment: ${z.prettifyError(parsed.error)}`);
}

export const env: Env = parsed.data;
