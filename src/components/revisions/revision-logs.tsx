"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Loader2, ScrollText, WifiOff } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import type { Revision } from "@/schemas/revisions";
import { useTRPC } from "@/trpc/react";
import { LogLines } from "./logs/log-lines";
import { useLogStream, type LogStream } from "./logs/use-log-stream";
import { RevisionStatusBadge } from "./revision-status";

/** The revision's build and deploy log, streamed live while it runs. */
export function RevisionLogs({ revision }: { revision: Revision }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const url = `/v2/deployments/${revision.deployment_id}/revisions/${revision.id}/logs/stream`;
  // The log ends with the revision: the pages' statuses catch up at once instead of at next poll.
  const stream = useLogStream(url, () => {
    void queryClient.invalidateQueries({ queryKey: trpc.revisions.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.deployments.pathKey() });
  });
  const { lines, phase } = stream;

  return (
    <Card>
      <CardHeader
        title="Logs"
        description={`Build and deploy output of revision #${revision.number}.`}
        actions={<StreamState stream={stream} revision={revision} />}
      />
      <CardBody className="space-y-3">
        {phase === "error" && (
          <div
            role="alert"
            className="flex items-center justify-between gap-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-300"
          >
            The log could not be loaded.
            <Button variant="secondary" size="sm" onClick={stream.retry}>
              Try again
            </Button>
          </div>
        )}
        {lines.length > 0 ? (
          <LogLines lines={lines} label={`Log of revision #${revision.number}`} />
        ) : (
          phase !== "error" && (
            <p className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
              <ScrollText aria-hidden className="size-4" />
              {phase === "ended" ? "This revision wrote no log lines." : "Waiting for output…"}
            </p>
          )
        )}
      </CardBody>
    </Card>
  );
}

function StreamState({ stream, revision }: { stream: LogStream; revision: Revision }) {
  switch (stream.phase) {
    case "connecting":
      return (
        <span className="flex items-center gap-1.5 text-xs text-zinc-600 dark:text-zinc-400">
          <Loader2 aria-hidden className="size-3.5 animate-spin motion-reduce:animate-none" />
          Connecting…
        </span>
      );
    case "live":
      return (
        <Badge tone="green" dot pulse>
          Live
        </Badge>
      );
    case "reconnecting":
      return (
        <Badge tone="amber">
          <WifiOff aria-hidden className="size-3" />
          Reconnecting…
        </Badge>
      );
    case "ended":
      return (
        <span className="flex items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
          <span>Finished</span>
          {/* Once the revision's own data caught up: it says where a DEPLOYED revision runs. */}
          {stream.endStatus && stream.endStatus === revision.status && (
            <RevisionStatusBadge status={revision.status} runtime={revision.runtime} />
          )}
        </span>
      );
    case "error":
      return <Badge tone="red">Not connected</Badge>;
  }
}
