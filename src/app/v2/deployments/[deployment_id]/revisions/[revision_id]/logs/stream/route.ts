import { methods } from "@/server/rest/route";
import { streamRevisionLogs } from "@/server/rest/revision-log-stream";

export const dynamic = "force-dynamic";

export const { GET, POST, PATCH, PUT, DELETE } = methods({ GET: streamRevisionLogs });
