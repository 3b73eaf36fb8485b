import { tracingEndpoints as e } from "@/server/rest/endpoints/tracing";
import { methodsOrNotFound } from "@/server/rest/not-found";
import { route } from "@/server/rest/route";
import { readFeedback } from "@/server/services/tracing/feedback";

export const { GET, POST, PATCH, PUT, DELETE } = methodsOrNotFound({
  GET: route(e.readFeedback, ({ db, actor, params }) =>
    readFeedback(db, actor, params.feedback_id),
  ),
});
