import { tracingEndpoints as e } from "@/server/rest/endpoints/tracing";
import { invalidField, notFound } from "@/server/errors";
import { methodsOrNotFound } from "@/server/rest/not-found";
import { route } from "@/server/rest/route";
import { singleAnswer } from "@/server/rest/tracing-body";
import { isUuid } from "@/server/services/tracing/ids";
import { ingestRuns } from "@/server/services/tracing/ingest";
import { readRun } from "@/server/services/tracing/runs-read";

export const { GET, POST, PATCH, PUT, DELETE } = methodsOrNotFound({
  GET: route(e.readRun, ({ db, actor, params, origin }) =>
    readRun(db, actor, params.run_id, origin),
  ),
  PATCH: route(e.patchRun, async ({ db, actor, params, body }) => {
    if (!isUuid(params.run_id)) throw notFound(`Run ${params.run_id} not found`);
    if (body.id && body.id.toLowerCase() !== params.run_id.toLowerCase())
      throw invalidField(["body", "id"], "The body's id is not the path's run id");
    const value = { ...body, id: params.run_id };
    return singleAnswer(await ingestRuns(db, actor, [{ kind: "patch", loc: ["body"], value }]));
  }),
});
