// The specification's rate-limit table (section 8.2), row for row, as data. match.ts reads it.

/**
 * Who a row counts: the API key, the user id (with the client address), a listener (its token's
 * SHA-256), or the address alone.
 */
export type Identity = "apiKey" | "user" | "listener" | "ip";

export type Region = "us" | "eu" | "apac" | "us2";

/** `count` requests per `seconds`. */
export interface Limit {
  count: number;
  seconds: number;
}

/**
 * One alternative of a row's match: every given part must hold. Path patterns:
 * `/a/b` the path contains that segment sequence; `*\/a/b` the path ends with it;
 * `contains /a` the path contains that substring; `{uuid}` stands for one UUID segment.
 */
export interface When {
  method?: string;
  path?: string;
}

export interface RateLimitRule {
  /** Stable name: the policy name in RateLimit headers and part of the store key. */
  id: string;
  category: string;
  identity: Identity;
  /** Alternatives (any may match); `"default"` marks the identity-only fallback rows. */
  when: readonly When[] | "default";
  us: Limit;
  eu: Limit;
}

const per = (count: number, seconds: number): Limit => ({ count, seconds });
const same = (count: number, seconds: number) => ({
  us: per(count, seconds),
  eu: per(count, seconds),
});

export const rateLimitRules: readonly RateLimitRule[] = [
  {
    // Not in the spec's table (issue 11): password attempts per address, first so that no
    // identity's broader row (`/auth`) applies. sign-in.ts adds a limit per account.
    id: "signin-ip",
    category: "Sign-in",
    identity: "ip",
    when: [
      { method: "POST", path: "/signin" },
      { method: "POST", path: "/api/auth/callback/credentials" },
    ],
    ...same(30, 60),
  },
  {
    // Not in the spec's table (issue 34): a followed log's lines (contract 14.3), per listener.
    // Each followed log posts at most twice a second (FLUSH_MS in jobs/listener/log-follow.ts)
    // and a replica follows at most 25 at once: their own budget, so viewers watching logs never
    // spend what leases and reports need.
    id: "listener-log-follow",
    category: "Listener protocol",
    identity: "listener",
    when: [{ method: "POST", path: "*/lines" }],
    ...same(3000, 60),
  },
  {
    // Not in the spec's table (issue 16): the listener protocol, per listener. Each replica keeps
    // one long poll open (a call per HANGAR_LISTENER_POLL_SECONDS at most when idle) and renews
    // each lease a few times a minute; 1200 a minute leaves room for many replicas and busy
    // moments (a burst of revisions, each a claim and a few reports).
    id: "listener-protocol",
    category: "Listener protocol",
    identity: "listener",
    when: [{ method: "POST", path: "/v2/listener" }],
    ...same(1200, 60),
  },
  {
    id: "high-throughput-ip",
    category: "High throughput",
    identity: "ip",
    when: [{ method: "OPTIONS" }, { path: "/info" }, { path: "*/v1/metadata/submit" }],
    ...same(2000, 10),
  },
  {
    id: "auth-api-key",
    category: "High throughput",
    identity: "apiKey",
    when: [{ path: "/auth" }],
    ...same(2000, 10),
  },
  {
    id: "auth-user",
    category: "High throughput",
    identity: "user",
    when: [{ path: "/auth" }],
    ...same(2000, 10),
  },
  {
    id: "beacon-ip",
    category: "High throughput",
    identity: "ip",
    when: [{ path: "/v1/beacon" }],
    ...same(2000, 10),
  },
  {
    id: "repos-api-key",
    category: "Repository",
    identity: "apiKey",
    when: [{ path: "/repos" }],
    ...same(100, 60),
  },
  {
    id: "repos-user",
    category: "Repository",
    identity: "user",
    when: [{ path: "/repos" }],
    ...same(100, 60),
  },
  {
    id: "runs-batch-api-key",
    category: "High throughput",
    identity: "apiKey",
    when: [{ method: "POST", path: "/runs/batch" }],
    ...same(2000, 10),
  },
  {
    id: "otel-traces-api-key",
    category: "Run ingest",
    identity: "apiKey",
    when: [{ method: "POST", path: "/otel/v1/traces" }],
    ...same(2000, 10),
  },
  {
    id: "charts-api-key",
    category: "Charts",
    identity: "apiKey",
    when: [{ method: "POST", path: "contains /charts" }],
    ...same(750, 600),
  },
  {
    id: "charts-user",
    category: "Charts",
    identity: "user",
    when: [{ method: "POST", path: "contains /charts" }],
    ...same(750, 600),
  },
  {
    id: "runs-multipart-api-key",
    category: "Multipart ingest",
    identity: "apiKey",
    when: [{ method: "POST", path: "/runs/multipart" }],
    ...same(6000, 10),
  },
  {
    id: "runs-query-api-key",
    category: "Run query (API)",
    identity: "apiKey",
    when: [{ method: "POST", path: "/runs/query" }],
    ...same(15, 10),
  },
  {
    id: "runs-query-user",
    category: "Run query (User)",
    identity: "user",
    when: [{ method: "POST", path: "/runs/query" }],
    ...same(300, 10),
  },
  {
    id: "generate-api-key",
    category: "Generation",
    identity: "apiKey",
    when: [{ path: "/generate" }],
    ...same(30, 3600),
  },
  {
    id: "generate-user",
    category: "Generation",
    identity: "user",
    when: [{ path: "/generate" }],
    ...same(30, 3600),
  },
  {
    id: "commits-api-key",
    category: "Commits",
    identity: "apiKey",
    when: [{ path: "/commits" }],
    us: per(10000, 60),
    eu: per(2000, 60),
  },
  {
    id: "commits-user",
    category: "Commits",
    identity: "user",
    when: [{ path: "/commits" }],
    us: per(10000, 60),
    eu: per(2000, 60),
  },
  {
    id: "deletion-api-key",
    category: "Deletion",
    identity: "apiKey",
    when: [
      { method: "DELETE", path: "/sessions" },
      { method: "DELETE", path: "*/trigger" },
    ],
    ...same(10, 60),
  },
  {
    id: "deletion-user",
    category: "Deletion",
    identity: "user",
    when: [
      { method: "DELETE", path: "/sessions" },
      { method: "DELETE", path: "*/trigger" },
    ],
    ...same(30, 60),
  },
  {
    // The table says `/runs` "(single run ingest)": the run collection itself, so that
    // POST /runs/stats and other sub-paths reach their own rows instead of this one.
    id: "runs-ingest-api-key",
    category: "Run ingest",
    identity: "apiKey",
    when: [{ method: "POST", path: "*/runs" }],
    ...same(2000, 10),
  },
  {
    id: "runs-patch-api-key",
    category: "Run ingest",
    identity: "apiKey",
    when: [{ method: "PATCH", path: "contains /runs" }],
    ...same(2000, 10),
  },
  {
    id: "feedback-api-key",
    category: "High throughput",
    identity: "apiKey",
    when: [{ method: "POST", path: "/feedback" }],
    ...same(2000, 10),
  },
  {
    id: "run-lookup-api-key",
    category: "Run lookup",
    identity: "apiKey",
    when: [
      { method: "GET", path: "/runs/{uuid}" },
      { method: "GET", path: "/api/v1/runs/{uuid}" },
    ],
    ...same(30, 60),
  },
  {
    id: "examples-api-key",
    category: "Examples",
    identity: "apiKey",
    when: [{ method: "GET", path: "contains /examples" }],
    ...same(5000, 60),
  },
  {
    id: "default-api-key",
    category: "Default (API key)",
    identity: "apiKey",
    when: "default",
    ...same(1000, 10),
  },
  {
    id: "default-user",
    category: "Default (User)",
    identity: "user",
    when: "default",
    ...same(1000, 10),
  },
  {
    id: "public-download-ip",
    category: "Public download",
    identity: "ip",
    when: [{ path: "/public/download" }],
    ...same(5000, 60),
  },
  {
    id: "runs-stats-api-key",
    category: "Stats",
    identity: "apiKey",
    when: [{ path: "/runs/stats" }],
    us: per(1, 10),
    eu: per(20, 10),
  },
  {
    id: "catch-all-ip",
    category: "Public (catch-all)",
    identity: "ip",
    when: "default",
    ...same(100, 60),
  },
];

/** APAC and the second US region use the US figures until theirs are published (spec 8.2). */
export function limitFor(rule: RateLimitRule, region: Region): Limit {
  return region === "eu" ? rule.eu : rule.us;
}
