import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { SearchXIcon } from "@/components/ui/icons";

/** notFound() in a dashboard page without a closer not-found: inside the shell. */
export default function DashboardNotFound() {
  return (
    <EmptyState
      icon={SearchXIcon}
      title="Page not found"
      description="Nothing lives at this address in this workspace."
      action={
        <Link href="/deployments" className={buttonClass("secondary")}>
          Go to deployments
        </Link>
      }
    />
  );
}
