"use client";

import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { useTRPC } from "@/trpc/react";
import { goToProvider } from "./provider-redirect";

/** Starts the flow for the signed-in user and sends the browser to the provider. */
export function ConnectAccount({ providerId, name }: { providerId: string; name: string }) {
  const trpc = useTRPC();
  const id = useId();
  const [scopes, setScopes] = useState("");
  const connect = useMutation(
    trpc.agentAuth.connect.mutationOptions({
      onSuccess: (result) => {
        if (!result.url) toast.success(`Your ${name} account is already connected.`);
        else if (!goToProvider(result.url))
          toast.error(
            "Could not start the connection: the provider's address is not an https URL.",
          );
      },
      onError: (error) => toast.error(`Could not start the connection: ${error.message}`),
    }),
  );
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        connect.mutate({ providerId, scopes: scopes.split(/[\s,]+/).filter(Boolean) });
      }}
    >
      <div className="grid min-w-64 flex-1 gap-1.5">
        <Label htmlFor={id}>Scopes (space-separated, optional)</Label>
        <Input
          id={id}
          value={scopes}
          onChange={(event) => setScopes(event.target.value)}
          placeholder="openid email offline_access"
          className="font-mono"
        />
      </div>
      <Button type="submit" disabled={connect.isPending}>
        {connect.isPending ? "Opening the provider…" : "Connect account"}
      </Button>
    </form>
  );
}
