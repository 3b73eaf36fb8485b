"use client";

import { useBaseline } from "../use-baseline";
import { useCanChange } from "../use-deployment";
import { SecretsForm } from "./secrets-form";

export function SecretsEditor({ id }: { id: string }) {
  const { baseline, setBaseline, reload } = useBaseline(id);
  const canEdit = useCanChange(id) ?? false;
  return (
    <SecretsForm
      key={baseline.etag}
      baseline={baseline}
      canEdit={canEdit}
      onSaved={setBaseline}
      onReload={reload}
    />
  );
}
