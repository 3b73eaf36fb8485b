"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { AlertTriangle, KeyRound } from "lucide-react";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Skeleton } from "@/components/ui/skeleton";
import { toast } from "@/components/ui/toast";
import type { Deployment } from "@/schemas/deployments";
import type { PushToken } from "@/schemas/registry";
import { useTRPC } from "@/trpc/react";
import { useCanChange } from "./use-deployment";

function Command({ label, text }: { label: string; text: string }) {
  return (
    <li className="space-y-1">
      <p className="text-sm text-zinc-700 dark:text-zinc-300">{label}</p>
      <div className="flex items-start gap-2">
        <pre
          tabIndex={0}
          className="min-w-0 flex-1 overflow-x-auto rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 font-mono text-xs dark:border-zinc-800 dark:bg-zinc-950"
        >
          {text}
        </pre>
        <CopyButton text={text} name={`Copy: ${label}`} />
      </div>
    </li>
  );
}

function TokenOnce({ created }: { created: PushToken }) {
  return (
    <div className="space-y-2">
      <p className="flex gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-500/30 dark:bg-amber-500/10 dark:text-amber-200">
        <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0" />
        Copy this push token now. It is shown only once and works for one hour, for this
        deployment&apos;s repository only.
      </p>
      <label htmlFor="push-token" className="text-sm font-medium text-zinc-700 dark:text-zinc-300">
        Push token
      </label>
      <div className="flex gap-2">
        <input
          id="push-token"
          readOnly
          value={created.token}
          onFocus={(e) => e.currentTarget.select()}
          className="h-9 w-full min-w-0 rounded-md border border-zinc-200 bg-zinc-50 px-3 font-mono text-sm dark:border-zinc-800 dark:bg-zinc-950"
        />
        <CopyButton text={created.token} label="Copy token" />
      </div>
    </div>
  );
}

/** How to push an image to Hangar's registry for an internal_container deployment. */
export function PushImagePanel({ deployment }: { deployment: Deployment }) {
  const trpc = useTRPC();
  const canChange = useCanChange(deployment.id);
  const target = useQuery(trpc.registry.target.queryOptions({ deploymentId: deployment.id }));
  const [created, setCreated] = useState<PushToken | null>(null);
  const create = useMutation(
    trpc.registry.createPushToken.mutationOptions({
      onSuccess: setCreated,
      onError: (error) => toast.error(`Could not create a push token: ${error.message}`),
    }),
  );
  if (deployment.source !== "internal_container") return null;

  let body;
  if (target.isPending) body = <Skeleton className="h-32 w-full" />;
  else if (target.isError)
    body = <Alert>Could not load the registry: {target.error.message}</Alert>;
  else if (!target.data.registry_url || !target.data.image)
    body = (
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        No container registry is configured for this Hangar: an operator sets{" "}
        <code className="font-mono">HANGAR_REGISTRY_URL</code> (see the README&apos;s Container
        registry section). Until then, set an image from another registry in Settings.
      </p>
    );
  else {
    const host = target.data.registry_url.split("/")[0]!;
    const image = `${target.data.image}:latest`;
    body = (
      <div className="space-y-4">
        <ol className="space-y-3">
          <Command
            label="1. Log in (paste the push token as the password)"
            text={`docker login ${host} -u oauth2accesstoken --password-stdin`}
          />
          <Command label="2. Tag your image" text={`docker tag <local image> ${image}`} />
          <Command label="3. Push it" text={`docker push ${image}`} />
        </ol>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Then set the deployment&apos;s image to <code className="font-mono">{image}</code> in
          Settings: the new revision deploys the digest that was pushed.
        </p>
        {created ? (
          <TokenOnce created={created} />
        ) : (
          canChange && (
            <Button
              onClick={() => create.mutate({ deploymentId: deployment.id })}
              disabled={create.isPending}
            >
              <KeyRound aria-hidden className="size-4" />
              {create.isPending ? "Creating…" : "Create a push token"}
            </Button>
          )
        )}
      </div>
    );
  }
  return (
    <Card>
      <CardHeader
        title="Push an image"
        description="Build the image on your machine and push it to Hangar's registry."
      />
      <CardBody>{body}</CardBody>
    </Card>
  );
}
