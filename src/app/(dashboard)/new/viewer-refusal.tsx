import { LockIcon } from "@/components/create/create-icons";
import { EmptyState } from "@/components/ui/empty-state";

export function ViewerRefusal() {
  return (
    <EmptyState
      icon={LockIcon}
      title="Viewers cannot create deployments"
      description="Creating a deployment needs the editor or admin role. Ask an admin of this workspace to change your role."
    />
  );
}
