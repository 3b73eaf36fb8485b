import packageJson from "../../../../package.json" with { type: "json" };
import { TRACING_BATCH_BYTES, TRACING_BATCH_RUNS } from "./limits";

/**
 * GET /api/v1/info: the tracing SDK sends multipart batches of at most this size, and never
 * compresses them (no gzip or zstd flag: the ingest routes refuse a Content-Encoding).
 */
export function getTracingInfo() {
  return {
    version: packageJson.version,
    batch_ingest_config: {
      use_multipart_endpoint: true,
      size_limit: TRACING_BATCH_RUNS,
      size_limit_bytes: TRACING_BATCH_BYTES,
      scale_up_qsize_trigger: 1000,
      scale_up_nthreads_limit: 16,
      scale_down_nempty_trigger: 4,
    },
    instance_flags: {
      gzip_body_enabled: false,
      zstd_compression_enabled: false,
      dataset_examples_multipart_enabled: false,
    },
  };
}
