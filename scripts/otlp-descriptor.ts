// Regenerates src/server/services/tracing/otlp/trace-service.json, the protobufjs descriptor of
// OTLP's trace export messages, from the official .proto files beside it (opentelemetry-proto
// v1.11.0). Run after replacing the .proto files: `npx tsx scripts/otlp-descriptor.ts`.
import { writeFileSync } from "node:fs";
import path from "node:path";
import protobuf from "protobufjs";

const dir = path.resolve(import.meta.dirname, "../src/server/services/tracing/otlp");
const protoDir = path.join(dir, "proto");
const root = new protobuf.Root();
root.resolvePath = (_origin, target) => path.join(protoDir, target);
root.loadSync("opentelemetry/proto/collector/trace/v1/trace_service.proto", { keepCase: false });
root.resolveAll();
writeFileSync(path.join(dir, "trace-service.json"), JSON.stringify(root.toJSON(), null, 1) + "\n");
