"use client";

import { useBaseline } from "../use-baseline";
import { useCanChange } from "../use-deployment";
import { SettingsForm } from "./settings-form";

export function SettingsEditor({ id }: { id: string }) {
  const { baseline, setBaseline, reload } = useBaseline(id);
  const canEdit = useCanChange(id) ?? false;
  return (
    <SettingsForm
      key={baseline.etag}
      baseline={baseline}
      canEdit={canEdit}
      onSaved={setBaseline}
      onReload={reload}
    />
  );
}
