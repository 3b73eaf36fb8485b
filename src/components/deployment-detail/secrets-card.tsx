import { KeyRound } from "lucide-react";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import type { Deployment } from "@/schemas/deployments";

/** Names only: the API never returns secret values. */
export function SecretsCard({ deployment: d }: { deployment: Deployment }) {
  const refs = d.secret_references ?? [];
  return (
    <Card>
      <CardHeader title="Secrets" description="Values are write-only and never shown." />
      <CardBody>
        {d.secrets.length === 0 && refs.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">No secrets.</p>
        ) : (
          <ul className="divide-y divide-zinc-100 dark:divide-zinc-800" aria-label="Secrets">
            {d.secrets.map((s) => (
              <li
                key={s.name}
                className="flex items-center justify-between gap-4 py-2 first:pt-0 last:pb-0"
              >
                <span className="flex items-center gap-2 font-mono text-sm">
                  <KeyRound aria-hidden className="size-3.5 text-zinc-400" />
                  {s.name}
                </span>
                <span aria-label="Value hidden" className="font-mono text-sm text-zinc-400">
                  ••••••••
                </span>
              </li>
            ))}
            {refs.map((r) => (
              <li key={r.name} className="flex items-center justify-between gap-4 py-2 last:pb-0">
                <span className="font-mono text-sm">{r.name}</span>
                <span className="font-mono text-xs text-zinc-500 dark:text-zinc-400">
                  from {r.secret_name}/{r.secret_key}
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}
