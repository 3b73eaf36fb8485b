"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { AlertTriangle } from "lucide-react";
import { useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import type { CodehostIntegrationDetail } from "@/schemas/codehost-integrations";
import { apiFailure } from "@/trpc/errors";
import { useTRPC } from "@/trpc/react";

function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="text-sm font-medium text-zinc-700 dark:text-zinc-300">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          readOnly
          value={value}
          onFocus={(e) => e.currentTarget.select()}
          className="h-9 w-full min-w-0 rounded-md border border-zinc-200 bg-zinc-50 px-3 font-mono text-sm dark:border-zinc-800 dark:bg-zinc-950"
        />
        <CopyButton text={value} label={`Copy ${label.toLowerCase()}`} />
      </div>
    </div>
  );
}

/**
 * What to enter at the code host for build on push: the payload URL, and a secret generated
 * here and shown once (Hangar keeps it encrypted to check each delivery's signature).
 */
export function WebhookDialog({
  integration,
  open,
  onClose,
}: {
  integration: CodehostIntegrationDetail;
  open: boolean;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [origin, setOrigin] = useState("");
  const [secret, setSecret] = useState<string | null>(null);
  useEffect(() => setOrigin(window.location.origin), []);
  const regenerate = useMutation(
    trpc.codehostIntegrations.regenerateWebhookSecret.mutationOptions({
      onSuccess: async (created) => {
        setSecret(created.secret);
        await queryClient.invalidateQueries({ queryKey: trpc.codehostIntegrations.pathKey() });
      },
    }),
  );
  const done = () => {
    setSecret(null);
    regenerate.reset();
    onClose();
  };
  const url = `${origin}/v1/webhooks/codehost/${integration.id}`;
  const base = `webhook-${integration.id}`;

  return (
    <Dialog
      open={open}
      onClose={done}
      title={`Build on push for ${integration.name}`}
      description="Deployments with “Build on push” build a new revision when their branch receives a push."
    >
      <div className="space-y-4">
        <ol className="list-decimal space-y-1 pl-5 text-sm text-zinc-700 dark:text-zinc-300">
          <li>In the repository&apos;s settings at the code host, add a webhook.</li>
          <li>Payload URL: the URL below. Content type: application/json.</li>
          <li>Secret: the secret below. Events: just the push event.</li>
        </ol>
        <CopyField id={`${base}-url`} label="Payload URL" value={url} />
        {secret ? (
          <>
            <p className="flex gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-500/30 dark:bg-amber-500/10 dark:text-amber-200">
              <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0" />
              Copy the secret now: it is shown only once.
            </p>
            <CopyField id={`${base}-secret`} label="Webhook secret" value={secret} />
          </>
        ) : (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {integration.has_webhook_secret
              ? "A secret is set. Generating a new one replaces it: update the webhook at the code host too."
              : "No secret yet: generate one, then enter it at the code host."}
          </p>
        )}
        {regenerate.isError && <Alert>{apiFailure(regenerate.error).message}</Alert>}
        <div className="flex flex-wrap justify-end gap-2">
          {!secret && (
            <Button
              variant="secondary"
              disabled={regenerate.isPending}
              onClick={() => regenerate.mutate({ integrationId: integration.id })}
            >
              {integration.has_webhook_secret ? "Generate a new secret" : "Generate secret"}
            </Button>
          )}
          <Button onClick={done}>Done</Button>
        </div>
      </div>
    </Dialog>
  );
}
