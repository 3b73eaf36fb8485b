import { methods } from "@/server/rest/route";
import { streamRuntimeLogs } from "@/server/rest/runtime-log-stream";

export const dynamic = "force-dynamic";

export const { GET, POST, PATCH, PUT, DELETE } = methods({ GET: streamRuntimeLogs });
