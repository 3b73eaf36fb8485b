import { ScrollText } from "lucide-react";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import type { Revision } from "@/schemas/revisions";

/**
 * Where the revision's build and deploy logs go. The logs API and its SSE stream are built
 * separately; replace this body with the live log view, keeping the props.
 */
export function RevisionLogsSlot({ revision }: { revision: Revision }) {
  return (
    <Card>
      <CardHeader
        title="Logs"
        description={`Build and deploy output of revision #${revision.number}.`}
      />
      <CardBody>
        <p className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
          <ScrollText aria-hidden className="size-4" />
          Logs are not available in the dashboard yet.
        </p>
      </CardBody>
    </Card>
  );
}
