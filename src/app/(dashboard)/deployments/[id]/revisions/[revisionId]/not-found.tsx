import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { SearchXIcon } from "@/components/ui/icons";

export default function RevisionNotFound() {
  return (
    <EmptyState
      icon={SearchXIcon}
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
