import { tracingEndpoints as e } from "@/server/rest/endpoints/tracing";
import { methodsOrNotFound } from "@/server/rest/not-found";
import { route } from "@/server/rest/route";
import { createFeedback, listFeedback } from "@/server/services/tracing/feedback";

export const { GET, POST, PATCH, PUT, DELETE } = methodsOrNotFound({
  // `run` and `key` repeat (`?run=a&run=b`): read them all, not only the last.
  GET: route(e.listFeedback, ({ db, actor, query, request }) => {
    const params = request.nextUrl.searchParams;
    const all = (name: string) => (params.getAll(name).length ? params.getAll(name) : undefined);
    return listFeedback(db, actor, { ...query, run: all("run"), key: all("key") });
  }),
  POST: route(e.createFeedback, ({ db, actor, body }) => createFeedback(db, actor, body)),
});
