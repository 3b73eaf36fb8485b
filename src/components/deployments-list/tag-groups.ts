// The workspace's tag values grouped by key: read on the server for the list page, in the browser
// by the tag forms (useTagOptions); one shape for both.

export interface TagOption {
  id: string;
  key: string;
  value: string;
}

export interface TagGroup {
  key: string;
  options: TagOption[];
}

export interface TagOptions {
  groups: TagGroup[];
  byId: Map<string, TagOption>;
}

/** Groups each key's values (`values[i]` belongs to `keys[i]`; missing lists count as empty). */
export function tagGroups(
  keys: { key: string }[],
  values: ({ id: string; value: string }[] | undefined)[],
): TagGroup[] {
  return keys.map((k, i) => ({
    key: k.key,
    options: (values[i] ?? []).map((v): TagOption => ({ id: v.id, key: k.key, value: v.value })),
  }));
}

/** The groups with a lookup by value id. */
export function tagOptions(groups: TagGroup[]): TagOptions {
  return { groups, byId: new Map(groups.flatMap((g) => g.options.map((o) => [o.id, o] as const))) };
}
