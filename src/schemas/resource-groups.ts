// The resource_spec's groups as plain values, without zod: the dashboard's error words (loaded on
// every page through the tRPC client) read them, and the browser should not download the schema
// library for that.

/** Groups of request/limit pairs; the limits default to twice the request. */
export const resourceGroups = [
  { prefix: "", scaled: true },
  { prefix: "queue_", scaled: true },
  { prefix: "orchestrator_", scaled: true },
  { prefix: "executor_", scaled: false },
  { prefix: "redis_", scaled: false },
  { prefix: "db_", scaled: false },
] as const;
