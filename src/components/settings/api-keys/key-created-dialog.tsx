"use client";

import { ShownOnceDialog } from "@/components/ui/shown-once-dialog";
import type { CreatedApiKey } from "@/schemas/api-keys";

/** The one time the secret key is shown: copy it now. */
export function KeyCreatedDialog({
  created,
  onClose,
}: {
  created: CreatedApiKey | null;
  onClose: () => void;
}) {
  return (
    <ShownOnceDialog
      value={created?.key ?? null}
      onClose={onClose}
      title="Your new API key"
      noun="key"
      label={created ? `${created.name} (${created.role})` : ""}
      inputId="created-key"
    />
  );
}
