import { IdChip } from "@/components/ui/id-chip";

/** An OAuth provider's id whole, with copy, linked to the provider's page. */
export function ProviderChip({ providerId, name }: { providerId: string; name?: string }) {
  return (
    <IdChip
      id={providerId}
      label={`${name ?? providerId} provider`}
      href={`/providers/${encodeURIComponent(providerId)}`}
    />
  );
}
