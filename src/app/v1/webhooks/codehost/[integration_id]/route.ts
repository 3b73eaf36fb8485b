import { receiveWebhook } from "@/server/rest/codehost-webhook";
import { methods } from "@/server/rest/route";

export const { GET, POST, PATCH, PUT, DELETE } = methods({ POST: receiveWebhook });
