import { tracingEndpoints as e } from "@/server/rest/endpoints/tracing";
import { methodsOrNotFound } from "@/server/rest/not-found";
import { route } from "@/server/rest/route";
import { batchAnswer } from "@/server/rest/tracing-body";
import { ingestBatch } from "@/server/services/tracing/batch";

export const { GET, POST, PATCH, PUT, DELETE } = methodsOrNotFound({
  POST: route(e.ingestBatch, async ({ db, actor, body }) => {
    const runs = [
      ...(body.post ?? []).map((value, i) => ({
        kind: "post" as const,
        loc: ["body", "post", i],
        value,
      })),
      ...(body.patch ?? []).map((value, i) => ({
        kind: "patch" as const,
        loc: ["body", "patch", i],
        value,
      })),
    ];
    return batchAnswer(await ingestBatch(db, actor, { runs, feedback: [] }));
  }),
});
