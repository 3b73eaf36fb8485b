import { z } from "zod";
import { uuid } from "@/schemas/common";
import {
  createdListener,
  createListenerBody,
  listener,
  listenerPage,
  listListenersQuery,
  patchListenerBody,
} from "@/schemas/listeners";
import * as listeners from "@/server/services/listeners/manage";
import { createRouter, workspaceProcedure } from "../trpc";

export const listenersRouter = createRouter({
  list: workspaceProcedure
    .input(listListenersQuery)
    .output(listenerPage)
    .query(({ ctx, input }) => listeners.listListeners(ctx.db, ctx.actor, input)),
  get: workspaceProcedure
    .input(z.object({ listenerId: uuid }))
    .output(listener)
    .query(({ ctx, input }) => listeners.getListener(ctx.db, ctx.actor, input.listenerId)),
  create: workspaceProcedure
    .input(createListenerBody)
    .output(createdListener)
    .mutation(({ ctx, input }) => listeners.createListener(ctx.db, ctx.actor, input)),
  patch: workspaceProcedure
    .input(patchListenerBody.extend({ listenerId: uuid }))
    .output(listener)
    .mutation(({ ctx, input: { listenerId, ...patch } }) =>
      listeners.patchListener(ctx.db, ctx.actor, listenerId, patch),
    ),
  delete: workspaceProcedure
    .input(z.object({ listenerId: uuid }))
    .mutation(({ ctx, input }) => listeners.deleteListener(ctx.db, ctx.actor, input.listenerId)),
});
