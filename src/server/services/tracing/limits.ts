// Sizes the tracing API accepts (contract 15.3 and 15.6, README "Tracing"). The request proxy hands a
// route at most 10 MiB of a body (Next's proxyClientMaxBodySize): a multipart body must stay
// under it, so the SDK is told to batch at most TRACING_BATCH_BYTES.

const MiB = 1024 * 1024;

/** A multipart or JSON ingest body: larger is refused whole with 413, nothing stored. */
export const TRACING_MAX_BODY_BYTES = 10 * MiB - 1;
/** What GET /api/v1/info tells the SDK to put in one batch (uncompressed bytes). */
export const TRACING_BATCH_BYTES = 8 * MiB;
/**
 * What GET /api/v1/info tells the SDK to put in one batch (runs). Every request pays the same
 * fixed cost at the door (Next's routing and proxy, ~2-4 ms of CPU): at 100 runs a body that was
 * a third of a run's ingest CPU, at 500 it is about a tenth (bench:ingest, README). A quiet
 * SDK still sends what it has after its short delay; 500 runs of every part fit TRACING_MAX_PARTS.
 */
export const TRACING_BATCH_RUNS = 500;
/** One multipart part (a run, one of its fields, an attachment, a feedback): larger → 413. */
export const TRACING_MAX_PART_BYTES = 8 * MiB;
/**
 * A run's inputs or outputs larger than this (as JSON text, UTF-8) are kept in the storage
 * backend, the row holding a reference (stored-fields.ts); smaller ones stay in PostgreSQL.
 */
export const TRACING_INLINE_FIELD_BYTES = 64 * 1024;
/** Parts of one multipart body. */
export const TRACING_MAX_PARTS = 10_000;
/** How far ahead of the server's clock a run may start (clock skew), in days. */
export const TRACING_FUTURE_DAYS = 2;
/** An OTLP export once gzip is undone: larger is refused whole with 413 (inflation is bounded). */
export const TRACING_OTLP_MAX_INFLATED_BYTES = 10 * MiB - 1;
/** How many refused spans an OTLP partial_success message names (the count is always exact). */
export const TRACING_OTLP_ERRORS_NAMED = 10;
