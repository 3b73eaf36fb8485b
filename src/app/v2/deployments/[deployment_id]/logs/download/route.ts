import { methods } from "@/server/rest/route";
import { downloadRuntimeLogFile } from "@/server/rest/runtime-log-stream";

export const dynamic = "force-dynamic";

export const { GET, POST, PATCH, PUT, DELETE } = methods({ GET: downloadRuntimeLogFile });
