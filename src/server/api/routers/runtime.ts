import { z } from "zod";
import { uuid } from "@/schemas/common";
import { runtimeLogQuery, runtimeLogs, runtimeState } from "@/schemas/runtime";
import { queryRuntimeLogs } from "@/server/services/runtime/logs";
import { readRuntimeState } from "@/server/services/runtime/state";
import { createRouter, workspaceProcedure } from "../trpc";

const ref = z.object({ deploymentId: uuid });

export const runtimeRouter = createRouter({
  state: workspaceProcedure
    .input(ref)
    .output(runtimeState)
    .query(({ ctx, input }) => readRuntimeState(ctx.db, ctx.actor, input.deploymentId)),
  logs: workspaceProcedure
    .input(runtimeLogQuery.extend(ref.shape))
    .output(runtimeLogs)
    .query(({ ctx, input: { deploymentId, ...query } }) =>
      queryRuntimeLogs(ctx.db, ctx.actor, deploymentId, query),
    ),
});
