import { KeyRound } from "lucide-react";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

export default function ProviderNotFound() {
  return (
    <EmptyState
      icon={KeyRound}
      title="OAuth provider not found"
      description="It may have been deleted, or it belongs to another organization."
      action={
        <Link href="/providers" className={buttonClass("secondary")}>
          All providers
        </Link>
      }
    />
  );
}
