import { tracingEndpoints as e } from "@/server/rest/endpoints/tracing";
import { methodsOrNotFound } from "@/server/rest/not-found";
import { route } from "@/server/rest/route";
import { createProject, listProjects } from "@/server/services/tracing/projects";

export const { GET, POST, PATCH, PUT, DELETE } = methodsOrNotFound({
  GET: route(e.listProjects, ({ db, actor, query }) => listProjects(db, actor, query)),
  POST: route(e.createProject, async ({ db, actor, body, query }) => {
    const { project, created } = await createProject(db, actor, body, query.upsert === "true");
    return { $status: created ? 201 : 200, body: project };
  }),
});
