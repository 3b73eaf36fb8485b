"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "@/components/ui/toast";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { RelativeTime } from "@/components/ui/relative-time";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, Tr } from "@/components/ui/table";
import type { BrowserSession } from "@/schemas/sessions";
import { useTRPC } from "@/trpc/react";

/** The signed-in user's browsers; revoking one signs it out on its next request. */
export function SessionsView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.session.list.queryOptions());
  const [revoking, setRevoking] = useState<BrowserSession | null>(null);
  const revoke = useMutation(
    trpc.session.revoke.mutationOptions({
      onSuccess: async () => {
        toast.success("Session revoked: that browser is signed out");
        const wasCurrent = revoking?.current;
        setRevoking(null);
        if (wasCurrent) window.location.assign("/signin");
        else await queryClient.invalidateQueries({ queryKey: trpc.session.list.queryKey() });
      },
      onError: (error) => {
        toast.error(`Could not revoke: ${error.message}`);
        setRevoking(null);
      },
    }),
  );

  if (list.isPending) return <Skeleton className="h-40 w-full" />;
  if (list.isError) return <Alert>Could not load sessions: {list.error.message}</Alert>;
  return (
    <>
      <Table aria-label="Sessions">
        <thead>
          <tr>
            <Th>Browser</Th>
            <Th>Signed in</Th>
            <Th>Last seen</Th>
            <Th>
              <span className="sr-only">Actions</span>
            </Th>
          </tr>
        </thead>
        <tbody>
          {list.data.map((s) => (
            <Tr key={s.id}>
              <Td>
                <span className="break-all">{s.user_agent ?? "Unknown browser"}</span>
                {s.current && (
                  <span className="ml-2">
                    <Badge>This browser</Badge>
                  </span>
                )}
              </Td>
              <Td className="text-zinc-600 dark:text-zinc-400">
                <RelativeTime iso={s.created_at} />
              </Td>
              <Td className="text-zinc-600 dark:text-zinc-400">
                <RelativeTime iso={s.last_seen_at} />
              </Td>
              <Td className="text-right">
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => setRevoking(s)}
                  aria-label={`Revoke session ${s.current ? "of this browser" : s.id}`}
                >
                  Revoke
                </Button>
              </Td>
            </Tr>
          ))}
        </tbody>
      </Table>
      <ConfirmDialog
        variant="danger"
        pendingLabel="Revoking…"
        open={!!revoking}
        title="Revoke session"
        description={
          revoking?.current
            ? "This browser is signed out now."
            : "That browser is signed out on its next request."
        }
        confirmLabel="Revoke session"
        pending={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate({ id: revoking.id })}
        onClose={() => setRevoking(null)}
      />
    </>
  );
}
