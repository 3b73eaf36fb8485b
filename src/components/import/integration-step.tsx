"use client";

import { useQuery } from "@tanstack/react-query";
import { Alert } from "@/components/ui/alert";
import { Plug, Plus } from "lucide-react";
import { useState } from "react";
import { RegisterIntegrationForm } from "@/components/settings/integrations/register-integration-form";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { useTRPC } from "@/trpc/react";
import { ChoiceList } from "./choice-list";

/** Step 1: which code-host integration to import from, or register one here. */
export function IntegrationStep({
  selected,
  onSelect,
}: {
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  const trpc = useTRPC();
  const list = useQuery(trpc.codehostIntegrations.list.queryOptions());
  const [registering, setRegistering] = useState(false);

  if (list.isPending) {
    return (
      <div role="status" aria-label="Loading integrations" className="space-y-2">
        <Skeleton className="h-14 w-full" />
        <Skeleton className="h-14 w-full" />
      </div>
    );
  }
  if (list.isError) {
    return (
      <Alert>
        Could not load integrations: {list.error.message}{" "}
        <button type="button" className="underline" onClick={() => list.refetch()}>
          Try again
        </button>
      </Alert>
    );
  }
  const integrations = list.data;
  const showForm = registering || integrations.length === 0;

  return (
    <div className="space-y-5">
      {integrations.length > 0 && (
        <ChoiceList
          legend="Code-host integration"
          name="integration"
          value={selected}
          onChange={onSelect}
          options={integrations.map((i) => ({
            value: i.id,
            label: i.name,
            detail: i.installation_id ? `App installation ${i.installation_id}` : "Access token",
            icon: Plug,
          }))}
        />
      )}
      {showForm ? (
        <div className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
          <h3 className="mb-1 text-sm font-semibold">Register a code-host integration</h3>
          <p className="mb-4 text-sm text-zinc-600 dark:text-zinc-400">
            {integrations.length === 0
              ? "No integration yet: connect your code host with an access token."
              : "Connect another code host with an access token."}
          </p>
          <RegisterIntegrationForm
            onCreated={(created) => {
              setRegistering(false);
              onSelect(created.id);
            }}
            onCancel={integrations.length > 0 ? () => setRegistering(false) : undefined}
          />
        </div>
      ) : (
        <Button variant="secondary" onClick={() => setRegistering(true)}>
          <Plus aria-hidden className="size-4" />
          Register another integration
        </Button>
      )}
    </div>
  );
}
