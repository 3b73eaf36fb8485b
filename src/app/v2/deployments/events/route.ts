import { streamDeploymentChanges } from "@/server/rest/deployment-events";
import { methods } from "@/server/rest/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PATCH, PUT, DELETE } = methods({ GET: streamDeploymentChanges });
