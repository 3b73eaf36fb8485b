"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/trpc/react";

/** The listener that reconciles a self-hosted deployment: its cluster, whether it is online. */
export function ListenerName({ listenerId }: { listenerId: string }) {
  const trpc = useTRPC();
  const listener = useQuery(trpc.listeners.get.queryOptions({ listenerId })).data;
  const link = "underline-offset-2 hover:underline";
  if (!listener)
    return (
      <Link href="/settings/listeners" className={link}>
        Remote listener
      </Link>
    );
  return (
    <span>
      <Link href="/settings/listeners" className={`font-mono ${link}`}>
        {listener.compute_id}
      </Link>{" "}
      <span className="text-zinc-500 dark:text-zinc-400">
        ({listener.status === "online" ? "online" : "offline"})
      </span>
    </span>
  );
}
