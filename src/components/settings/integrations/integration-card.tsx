"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { DescriptionList, Mono } from "@/components/ui/description-list";
import { IdChip } from "@/components/ui/id-chip";
import { integrationAnchor } from "./integration-link";
import { RelativeTime } from "@/components/ui/relative-time";
import { toast } from "@/components/ui/toast";
import type { CodehostIntegrationDetail } from "@/schemas/codehost-integrations";
import { apiFailure } from "@/trpc/errors";
import { useTRPC } from "@/trpc/react";
import { DeleteIntegrationDialog } from "./delete-integration-dialog";
import { EditIntegrationDialog } from "./edit-integration-dialog";
import { RotateTokenDialog } from "./rotate-token-dialog";
import { WebhookDialog } from "./webhook-dialog";

type Open = "edit" | "rotate" | "webhook" | "delete" | null;

function LastCheck({ integration }: { integration: CodehostIntegrationDetail }) {
  if (!integration.last_checked_at) return <span>Never checked</span>;
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      {integration.last_check_error ? (
        <Badge tone="red" dot>
          Failed
        </Badge>
      ) : (
        <Badge tone="green" dot>
          Connected
        </Badge>
      )}
      <RelativeTime iso={integration.last_checked_at} />
      {integration.last_check_error && (
        <span className="w-full text-red-700 dark:text-red-300">
          {integration.last_check_error}
        </span>
      )}
    </span>
  );
}

function UsedBy({ integration }: { integration: CodehostIntegrationDetail }) {
  const elsewhere = integration.used_elsewhere;
  const others = elsewhere > 0 && (
    <span>
      {elsewhere} deployment{elsewhere === 1 ? "" : "s"} in other workspaces
    </span>
  );
  if (integration.used_by.length === 0) return others || <span>No deployments</span>;
  return (
    <>
      <ul className="flex flex-wrap gap-x-3 gap-y-1">
        {integration.used_by.map((d) => (
          <li key={d.id}>
            <Link href={`/deployments/${d.id}`} className="underline underline-offset-2">
              {d.name}
            </Link>
          </li>
        ))}
      </ul>
      {others}
    </>
  );
}

/** One integration: what it is, whether it works, who uses it, and what an admin can change. */
export function IntegrationCard({
  integration,
  canEdit,
}: {
  integration: CodehostIntegrationDetail;
  canEdit: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const test = useMutation(
    trpc.codehostIntegrations.test.mutationOptions({
      onSuccess: async (check) => {
        if (check.ok) toast.success(`${integration.name}: the code host accepts the credentials`);
        else toast.error(`${integration.name}: ${check.error}`);
        await queryClient.invalidateQueries({ queryKey: trpc.codehostIntegrations.pathKey() });
      },
      onError: (error) => toast.error(apiFailure(error).message),
    }),
  );

  return (
    <Card id={integrationAnchor(integration.id)} className="scroll-mt-20">
      <CardHeader
        title={integration.name}
        description={<IdChip id={integration.id} label={`${integration.name} integration`} />}
        actions={
          canEdit && (
            <div className="flex flex-wrap justify-end gap-2">
              <Button
                size="sm"
                variant="secondary"
                disabled={test.isPending}
                onClick={() => test.mutate({ integrationId: integration.id })}
              >
                {test.isPending ? "Testing…" : "Test connection"}
              </Button>
              <Button size="sm" variant="secondary" onClick={() => setOpen("edit")}>
                Edit
              </Button>
              {integration.auth === "token" && (
                <Button size="sm" variant="secondary" onClick={() => setOpen("rotate")}>
                  Rotate token
                </Button>
              )}
              <Button size="sm" variant="secondary" onClick={() => setOpen("webhook")}>
                Webhook
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setOpen("delete")}>
                Delete
              </Button>
            </div>
          )
        }
      />
      <CardBody>
        <DescriptionList
          items={[
            { label: "API base URL", value: <Mono>{integration.api_base_url}</Mono> },
            {
              label: "Authenticated with",
              value:
                integration.auth === "token"
                  ? "Access token"
                  : `App ${integration.app_id}, installation ${integration.installation_id}`,
            },
            { label: "Last check", value: <LastCheck integration={integration} /> },
            {
              label: "Build on push",
              value: integration.has_webhook_secret ? "Webhook secret set" : "No webhook secret",
            },
            {
              label: "Used by",
              value: <UsedBy integration={integration} />,
            },
            { label: "Registered", value: <RelativeTime iso={integration.created_at} /> },
          ]}
        />
      </CardBody>
      {canEdit && (
        <>
          <EditIntegrationDialog integration={integration} open={open === "edit"} onClose={close} />
          <RotateTokenDialog integration={integration} open={open === "rotate"} onClose={close} />
          <WebhookDialog integration={integration} open={open === "webhook"} onClose={close} />
          <DeleteIntegrationDialog
            integration={integration}
            open={open === "delete"}
            onClose={close}
          />
        </>
      )}
    </Card>
  );
}
