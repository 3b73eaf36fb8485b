import { SearchX } from "lucide-react";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

export default function RevisionNotFound() {
  return (
    <EmptyState
      icon={SearchX}
      title="Revision not found"
      description="This revision does not exist, or its deployment was deleted or belongs to another workspace."
      action={
        <Link href="/deployments" className={buttonClass("secondary")}>
          All deployments
        </Link>
      }
    />
  );
}
