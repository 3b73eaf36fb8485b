"use client";

import { useQuery } from "@tanstack/react-query";
import { Alert } from "@/components/ui/alert";
import { Plug, Plus } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { useTRPC } from "@/trpc/react";
import { IntegrationCard } from "./integration-card";
import { RegisterIntegrationForm } from "./register-integration-form";

export function IntegrationsView({ canEdit }: { canEdit: boolean }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.codehostIntegrations.details.queryOptions());
  const [registering, setRegistering] = useState(false);

  let body;
  if (list.isPending) body = <Skeleton className="h-32 w-full" />;
  else if (list.isError) body = <Alert>Could not load integrations: {list.error.message}</Alert>;
  else if (list.data.length === 0)
    body = (
      <EmptyState
        icon={Plug}
        title="No code-host integrations"
        description="Register your code host to import repositories and build on every push."
      />
    );
  else
    body = (
      <ul aria-label="Code-host integrations" className="space-y-4">
        {list.data.map((i) => (
          <li key={i.id}>
            <IntegrationCard integration={i} canEdit={canEdit} />
          </li>
        ))}
      </ul>
    );

  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between gap-4">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Integrations belong to the organization: every workspace in it can import through them.
        </p>
        {canEdit && !registering && (
          <Button onClick={() => setRegistering(true)}>
            <Plus aria-hidden className="size-4" />
            Register integration
          </Button>
        )}
      </div>
      {registering && (
        <Card>
          <CardHeader
            title="Register a code-host integration"
            description="With an access token. App installations are registered through the REST API."
          />
          <CardBody>
            <RegisterIntegrationForm
              onCreated={() => setRegistering(false)}
              onCancel={() => setRegistering(false)}
            />
          </CardBody>
        </Card>
      )}
      {body}
    </div>
  );
}
