"use client";

import { OverviewCard } from "./overview-card";
import { PreviewOfCard, PreviewsCard } from "./previews-card";
import { PushImagePanel } from "./push-image-panel";
import { ResourcesCard } from "./resources-card";
import { SecretsCard } from "./secrets-card";
import { SourceCard } from "./source-card";
import { TagsCard } from "./tags-card";
import { useDeployment } from "./use-deployment";

export function DeploymentOverview({ id }: { id: string }) {
  const { deployment: d } = useDeployment(id);
  return (
    <div className="space-y-6">
      <OverviewCard id={id} />
      <PreviewOfCard deployment={d} />
      {d.source === "codehost" && !d.preview && <PreviewsCard deployment={d} />}
      <PushImagePanel deployment={d} />
      <div className="grid gap-6 lg:grid-cols-2">
        <SourceCard deployment={d} />
        <ResourcesCard deployment={d} />
        <SecretsCard deployment={d} />
        <TagsCard tagValueIds={d.tag_value_ids} />
      </div>
    </div>
  );
}
