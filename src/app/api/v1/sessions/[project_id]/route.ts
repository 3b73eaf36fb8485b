import { tracingEndpoints as e } from "@/server/rest/endpoints/tracing";
import { methodsOrNotFound } from "@/server/rest/not-found";
import { route } from "@/server/rest/route";
import { deleteProject } from "@/server/services/tracing/project-delete";
import { readProject } from "@/server/services/tracing/projects";

export const { GET, POST, PATCH, PUT, DELETE } = methodsOrNotFound({
  GET: route(e.readProject, ({ db, actor, params }) => readProject(db, actor, params.project_id)),
  DELETE: route(e.deleteProject, ({ db, actor, params }) =>
    deleteProject(db, actor, params.project_id),
  ),
});
