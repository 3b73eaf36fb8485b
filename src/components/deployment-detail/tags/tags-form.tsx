"use client";

import { Tags } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { useTagOptions } from "@/components/deployments-list/use-tag-options";
import { Button, buttonClass } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { FormField } from "@/components/ui/form-field";
import { Select } from "@/components/ui/select";
import { ChangeNotice } from "../change-notice";
import { UnsavedChangesGuard } from "../unsaved-changes";
import { usePatchDeployment, type DeploymentEditorProps } from "../use-patch-deployment";

/** At most one value per tag key; tags never cut a revision. */
export function TagsForm({ baseline, canEdit, onSaved, onReload }: DeploymentEditorProps) {
  const d = baseline.deployment;
  const { groups } = useTagOptions();
  const initial = Object.fromEntries(
    groups.map((g) => [g.key, g.options.find((o) => d.tag_value_ids.includes(o.id))?.id ?? ""]),
  );
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const selected = { ...initial, ...chosen };
  // Values of keys this form does not show (none today) are kept as they are.
  const shown = new Set(groups.flatMap((g) => g.options.map((o) => o.id)));
  const tagValueIds = [
    ...d.tag_value_ids.filter((tagId) => !shown.has(tagId)),
    ...Object.values(selected).filter(Boolean),
  ];
  const dirty =
    tagValueIds.length !== d.tag_value_ids.length ||
    tagValueIds.some((tagId) => !d.tag_value_ids.includes(tagId));
  const save = usePatchDeployment(d.id, { onReload });

  if (groups.length === 0) {
    return (
      <EmptyState
        icon={Tags}
        title="No tags in this workspace"
        description="Create tag keys and their values in Settings → Tags; then they can be set here."
        action={
          <Link href="/settings/tags" className={buttonClass("secondary")}>
            Manage tags
          </Link>
        }
      />
    );
  }
  return (
    <form
      aria-label="Tags"
      className="space-y-6"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(
          { id: d.id, ifMatch: baseline.etag, patch: { tag_value_ids: tagValueIds } },
          { onSuccess: onSaved },
        );
      }}
    >
      <Card>
        <CardHeader
          title="Tags"
          description="One value per key. Tags filter the deployments list."
        />
        <CardBody className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {groups.map((g) => (
            <FormField key={g.key} id={`tag-${g.key}`} label={g.key}>
              <Select
                id={`tag-${g.key}`}
                className="w-full"
                disabled={!canEdit}
                value={selected[g.key]}
                onChange={(e) => setChosen((c) => ({ ...c, [g.key]: e.target.value }))}
              >
                <option value="">None</option>
                {g.options.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.value}
                  </option>
                ))}
              </Select>
            </FormField>
          ))}
        </CardBody>
      </Card>
      {canEdit && (
        <div className="space-y-3 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
          <ChangeNotice cuts={[]} settings={dirty ? ["tag_value_ids"] : []} nextRevision={null} />
          <div className="flex justify-end gap-2">
            <Button
              variant="secondary"
              disabled={!dirty || save.isPending}
              onClick={() => setChosen({})}
            >
              Discard changes
            </Button>
            <Button type="submit" disabled={!dirty || save.isPending}>
              {save.isPending ? "Saving…" : "Save tags"}
            </Button>
          </div>
        </div>
      )}
      <UnsavedChangesGuard dirty={dirty} what="the tags" />
    </form>
  );
}
