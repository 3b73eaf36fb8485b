import { z } from "zod";
import {
  createTagKeyBody,
  createTagValueBody,
  tagKey,
  tagKeyWithValues,
  tagValue,
} from "@/schemas/tags";
import { uuid } from "@/schemas/common";
import * as tags from "@/server/services/tags";
import { createRouter, workspaceProcedure } from "../trpc";

export const tagsRouter = createRouter({
  listKeys: workspaceProcedure
    .output(z.array(tagKey))
    .query(({ ctx }) => tags.listTagKeys(ctx.db, ctx.actor)),
  listKeysWithValues: workspaceProcedure
    .output(z.array(tagKeyWithValues))
    .query(({ ctx }) => tags.listTagKeysWithValues(ctx.db, ctx.actor)),
  createKey: workspaceProcedure
    .input(createTagKeyBody)
    .output(tagKey)
    .mutation(({ ctx, input }) => tags.createTagKey(ctx.db, ctx.actor, input)),
  renameKey: workspaceProcedure
    .input(createTagKeyBody.extend({ tagKeyId: uuid }))
    .output(tagKey)
    .mutation(({ ctx, input }) =>
      tags.renameTagKey(ctx.db, ctx.actor, input.tagKeyId, { key: input.key }),
    ),
  deleteKey: workspaceProcedure
    .input(z.object({ tagKeyId: uuid }))
    .mutation(({ ctx, input }) => tags.deleteTagKey(ctx.db, ctx.actor, input.tagKeyId)),
  listValues: workspaceProcedure
    .input(z.object({ tagKeyId: uuid }))
    .output(z.array(tagValue))
    .query(({ ctx, input }) => tags.listTagValues(ctx.db, ctx.actor, input.tagKeyId)),
  createValue: workspaceProcedure
    .input(createTagValueBody.extend({ tagKeyId: uuid }))
    .output(tagValue)
    .mutation(({ ctx, input }) =>
      tags.createTagValue(ctx.db, ctx.actor, input.tagKeyId, { value: input.value }),
    ),
  renameValue: workspaceProcedure
    .input(createTagValueBody.extend({ tagKeyId: uuid, tagValueId: uuid }))
    .output(tagValue)
    .mutation(({ ctx, input }) =>
      tags.renameTagValue(ctx.db, ctx.actor, input.tagKeyId, input.tagValueId, {
        value: input.value,
      }),
    ),
  deleteValue: workspaceProcedure
    .input(z.object({ tagKeyId: uuid, tagValueId: uuid }))
    .mutation(({ ctx, input }) =>
      tags.deleteTagValue(ctx.db, ctx.actor, input.tagKeyId, input.tagValueId),
    ),
});
