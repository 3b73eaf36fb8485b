"use client";

import { useBaseline } from "../use-baseline";
import { useCanChange } from "../use-deployment";
import { TagsForm } from "./tags-form";

export function TagsEditor({ id }: { id: string }) {
  const { baseline, setBaseline, reload } = useBaseline(id);
  const canEdit = useCanChange(id) ?? false;
  return (
    <TagsForm
      key={baseline.etag}
      baseline={baseline}
      canEdit={canEdit}
      onSaved={setBaseline}
      onReload={reload}
    />
  );
}
