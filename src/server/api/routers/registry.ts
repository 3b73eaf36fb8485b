import { z } from "zod";
import { uuid } from "@/schemas/common";
import { pushToken, registryTarget } from "@/schemas/registry";
import {
  createPushToken,
  registryTarget as readRegistryTarget,
} from "@/server/services/registry/push-tokens";
import { createRouter, workspaceProcedure } from "../trpc";

export const registryRouter = createRouter({
  /** Where an internal_container deployment's images go (registry_url null: none configured). */
  target: workspaceProcedure
    .input(z.object({ deploymentId: uuid }))
    .output(registryTarget)
    .query(({ ctx, input }) => readRegistryTarget(ctx.db, ctx.actor, input.deploymentId)),
  createPushToken: workspaceProcedure
    .input(z.object({ deploymentId: uuid }))
    .output(pushToken)
    .mutation(({ ctx, input }) => createPushToken(ctx.db, ctx.actor, input.deploymentId)),
});
