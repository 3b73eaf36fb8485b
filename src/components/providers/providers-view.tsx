"use client";

import { useQuery } from "@tanstack/react-query";
import { Alert } from "@/components/ui/alert";
import { KeyRound } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, Tr } from "@/components/ui/table";
import { useTRPC } from "@/trpc/react";
import { providerTypeLabels } from "./provider-form-model";

export function ProvidersView({ canEdit }: { canEdit: boolean }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.oauthProviders.list.queryOptions());
  if (list.isPending) {
    return (
      <div role="status" aria-label="Loading providers" className="space-y-2">
        {Array.from({ length: 3 }, (_, i) => (
          <Skeleton key={i} className="h-12 w-full" />
        ))}
      </div>
    );
  }
  if (list.isError) return <Alert>Could not load OAuth providers: {list.error.message}</Alert>;
  if (list.data.length === 0) {
    return (
      <EmptyState
        icon={KeyRound}
        title="No OAuth providers yet"
        description="Register the OAuth clients your agents use to act on behalf of users in third-party services."
        action={
          canEdit ? (
            <Link href="/providers/new" className={buttonClass()}>
              New provider
            </Link>
          ) : undefined
        }
      />
    );
  }
  return (
    <Table aria-label="OAuth providers">
      <thead>
        <tr>
          <Th>Provider ID</Th>
          <Th>Name</Th>
          <Th>Type</Th>
          <Th>PKCE</Th>
          <Th>Auth method</Th>
          <Th>Created</Th>
          <Th>
            <span className="sr-only">Your account</span>
          </Th>
        </tr>
      </thead>
      <tbody>
        {list.data.map((p) => (
          <Tr key={p.id}>
            <Td>
              <Link
                href={`/providers/${encodeURIComponent(p.provider_id)}`}
                className="rounded-sm font-mono text-[13px] font-medium text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-400"
              >
                {p.provider_id}
              </Link>
            </Td>
            <Td>{p.name}</Td>
            <Td>
              {providerTypeLabels[p.provider_type ?? ""]?.replace(" (generic OAuth 2.0)", "")}
            </Td>
            <Td>
              {p.uses_pkce ? (
                <Badge tone="green">{p.code_challenge_method}</Badge>
              ) : (
                <Badge>Off</Badge>
              )}
            </Td>
            <Td className="font-mono text-[13px]">{p.token_endpoint_auth_method}</Td>
            <Td className="text-zinc-600 dark:text-zinc-400">
              <RelativeTime iso={p.created_at} />
            </Td>
            <Td className="text-right">
              <Link
                href={`/providers/${encodeURIComponent(p.provider_id)}#connect`}
                className={buttonClass("secondary", "sm")}
                aria-label={`Connect your ${p.name} account`}
              >
                Connect
              </Link>
            </Td>
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}
