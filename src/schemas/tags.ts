import { z } from "zod";
import { timestamp, uuid } from "./common";

// Workspace tags (contract 8): keys, and values under a key.

export const TAG_TEXT = /^[A-Za-z0-9][A-Za-z0-9 _.:/-]*$/;
const tagText = (what: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(63)
    .regex(
      TAG_TEXT,
      `${what} starts with a letter or digit and holds letters, digits, spaces and _ . : / -`,
    );

export const tagKey = z
  .object({ id: uuid, key: z.string(), created_at: timestamp })
  .meta({ id: "TagKey" });
export type TagKey = z.infer<typeof tagKey>;

export const tagValue = z
  .object({ id: uuid, tag_key_id: uuid, value: z.string(), created_at: timestamp })
  .meta({ id: "TagValue" });
export type TagValue = z.infer<typeof tagValue>;

/** A key with all its values (the deployments list's filter menu and chips, in one read). */
export const tagKeyWithValues = tagKey
  .extend({ values: z.array(tagValue) })
  .meta({ id: "TagKeyWithValues" });
export type TagKeyWithValues = z.infer<typeof tagKeyWithValues>;

export const createTagKeyBody = z
  .object({ key: tagText("A tag key") })
  .meta({ id: "CreateTagKey" });
export const createTagValueBody = z
  .object({ value: tagText("A tag value") })
  .meta({ id: "CreateTagValue" });

export const tagKeyParams = z.object({ tag_key_id: uuid });
export const tagValueParams = z.object({ tag_key_id: uuid, tag_value_id: uuid });
