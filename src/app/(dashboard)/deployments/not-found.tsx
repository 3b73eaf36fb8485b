import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { SearchXIcon } from "@/components/ui/icons";

export default function DeploymentNotFound() {
  return (
    <EmptyState
      icon={SearchXIcon}
      title="Deployment not found"
      description="It may have been deleted, or it belongs to another workspace."
      action={
        <Link href="/deployments" className={buttonClass("secondary")}>
          All deployments
        </Link>
      }
    />
  );
}
